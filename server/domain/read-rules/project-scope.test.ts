import { describe, expect, it } from 'vitest';
import { parseProjectScope, resolveProjectScope } from './project-scope';
import { ReadRuleError } from './read-rule-error';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const C = '33333333-3333-4333-8333-333333333333';
const ids = (n: number) =>
  Array.from({ length: n }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);

const kindOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return e instanceof ReadRuleError ? e.kind : 'other';
  }
  return 'ok';
};

describe('parseProjectScope', () => {
  it('reads neither, one id, or a set', () => {
    expect(parseProjectScope({})).toEqual({ kind: 'all' });
    expect(parseProjectScope({ project_id: A.toUpperCase() })).toEqual({
      kind: 'one',
      projectId: A,
    });
    expect(parseProjectScope({ project_ids: `${A},${B}` })).toEqual({
      kind: 'set',
      projectIds: [A, B],
    });
    expect(parseProjectScope({ project_ids: ids(50).join(',') })).toMatchObject({ kind: 'set' });
  });
  it('rejects both keys, wrong counts, duplicates and non-UUIDs', () => {
    expect(kindOf(() => parseProjectScope({ project_id: A, project_ids: `${B},${C}` }))).toBe(
      'invalid',
    );
    expect(kindOf(() => parseProjectScope({ project_ids: A }))).toBe('invalid');
    expect(kindOf(() => parseProjectScope({ project_ids: ids(51).join(',') }))).toBe('invalid');
    expect(kindOf(() => parseProjectScope({ project_ids: `${A},${A.toUpperCase()}` }))).toBe(
      'invalid',
    );
    expect(kindOf(() => parseProjectScope({ project_ids: `${A},nope` }))).toBe('invalid');
    expect(kindOf(() => parseProjectScope({ project_ids: `${A},` }))).toBe('invalid');
    expect(kindOf(() => parseProjectScope({ project_id: 'nope' }))).toBe('invalid');
  });
});

describe('resolveProjectScope', () => {
  const readable = new Set([A, B]);
  it('reads every readable project when no scope is sent', () => {
    expect(resolveProjectScope({ kind: 'all' }, readable).sort()).toEqual([A, B]);
  });
  it('reads nothing for one unreadable project_id', () => {
    expect(resolveProjectScope({ kind: 'one', projectId: C }, readable)).toEqual([]);
    expect(resolveProjectScope({ kind: 'one', projectId: A }, readable)).toEqual([A]);
  });
  it('fails the whole set when any id is unreadable', () => {
    expect(resolveProjectScope({ kind: 'set', projectIds: [A, B] }, readable)).toEqual([A, B]);
    expect(kindOf(() => resolveProjectScope({ kind: 'set', projectIds: [A, C] }, readable))).toBe(
      'not_found',
    );
  });
});
