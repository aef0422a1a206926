import { describe, expect, it } from 'vitest';
import {
  ALL_PROJECTS,
  isProjectIdList,
  parseProjectScope,
  readableScope,
  scopeLabel,
  scopeQuery,
  serializeProjectScope,
  toggleProject,
} from './project-scope';

const a = '0f8fad5b-d9cb-469f-a165-70867728950e';
const b = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const c = '16fd2706-8baf-433b-82eb-8c7fada847da';
const projects = [
  { id: a, name: 'Storefront Web' },
  { id: b, name: 'Checkout API' },
  { id: c, name: 'Mobile App' },
];

describe('parseProjectScope', () => {
  it('reads one project, a set, or all', () => {
    expect(parseProjectScope({})).toEqual(ALL_PROJECTS);
    expect(parseProjectScope({ project: a })).toEqual({ kind: 'projects', ids: [a] });
    expect(parseProjectScope({ projects: `${a},${b}` })).toEqual({ kind: 'projects', ids: [a, b] });
  });

  it('falls back to all projects for invalid values', () => {
    expect(parseProjectScope({ project: 'storefront' })).toEqual(ALL_PROJECTS);
    expect(parseProjectScope({ projects: a })).toEqual(ALL_PROJECTS);
    expect(parseProjectScope({ projects: `${a},${a}` })).toEqual(ALL_PROJECTS);
    expect(parseProjectScope({ projects: `${a},nope` })).toEqual(ALL_PROJECTS);
    expect(parseProjectScope({ project: a, projects: `${b},${c}` })).toEqual(ALL_PROJECTS);
  });
});

describe('isProjectIdList', () => {
  it('accepts 2 to 50 distinct UUIDs', () => {
    expect(isProjectIdList(`${a},${b}`)).toBe(true);
    expect(isProjectIdList(a)).toBe(false);
    expect(isProjectIdList(`${a},${b},`)).toBe(false);
    const many = Array.from(
      { length: 51 },
      (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    );
    expect(isProjectIdList(many.slice(0, 50).join(','))).toBe(true);
    expect(isProjectIdList(many.join(','))).toBe(false);
  });
});

describe('serializeProjectScope and scopeQuery', () => {
  it('writes project for one, projects for several, nothing for all', () => {
    expect(serializeProjectScope(ALL_PROJECTS)).toEqual({
      project: undefined,
      projects: undefined,
    });
    expect(serializeProjectScope({ kind: 'projects', ids: [a] })).toEqual({
      project: a,
      projects: undefined,
    });
    expect(serializeProjectScope({ kind: 'projects', ids: [a, b] })).toEqual({
      project: undefined,
      projects: `${a},${b}`,
    });
    expect(scopeQuery(ALL_PROJECTS)).toEqual({});
    expect(scopeQuery({ kind: 'projects', ids: [a] })).toEqual({ project_id: a });
    expect(scopeQuery({ kind: 'projects', ids: [a, b] })).toEqual({ project_ids: `${a},${b}` });
  });
});

describe('toggleProject', () => {
  it('adds and removes projects; removing the last goes back to all', () => {
    let scope = toggleProject(ALL_PROJECTS, a);
    expect(scope).toEqual({ kind: 'projects', ids: [a] });
    scope = toggleProject(scope, b);
    expect(scope).toEqual({ kind: 'projects', ids: [a, b] });
    scope = toggleProject(scope, a);
    expect(scope).toEqual({ kind: 'projects', ids: [b] });
    expect(toggleProject(scope, b)).toEqual(ALL_PROJECTS);
  });
});

describe('readableScope', () => {
  it('drops unreadable ids and never leaves an empty scope', () => {
    expect(readableScope({ kind: 'projects', ids: [a, b] }, [a])).toEqual({
      kind: 'projects',
      ids: [a],
    });
    expect(readableScope({ kind: 'projects', ids: [b] }, [a])).toEqual(ALL_PROJECTS);
  });
});

describe('scopeLabel', () => {
  it('names the scope', () => {
    expect(scopeLabel(ALL_PROJECTS, projects)).toBe('All projects');
    expect(scopeLabel({ kind: 'projects', ids: [b] }, projects)).toBe('Checkout API');
    expect(scopeLabel({ kind: 'projects', ids: [a, b, c] }, projects)).toBe('3 projects');
  });
});
