import { describe, expect, it } from 'vitest';
import { searchAfterScopeChange } from './scope-change';

const P1 = '11111111-1111-4111-8111-111111111111';
const P2 = '22222222-2222-4222-8222-222222222222';

describe('searchAfterScopeChange', () => {
  const logs = { project: ['log'] };

  it('keeps every page key when the range changes, unless the page binds it to the range', () => {
    const prev = { severity: 'error', log: 'abc', since: undefined };
    expect(
      searchAfterScopeChange(prev, 'range', { since: '7d', until: undefined }, [logs]),
    ).toEqual({ severity: 'error', log: 'abc', since: '7d', until: undefined });
    expect(
      searchAfterScopeChange({ cursor: 'c', q: 'x' }, 'range', { since: '7d' }, [
        { range: ['cursor'] },
      ]),
    ).toEqual({ q: 'x', since: '7d', cursor: undefined, until: undefined });
  });

  it('drops what the page binds to the projects when they change', () => {
    const prev = { severity: 'error', log: 'abc', since: '7d' };
    expect(
      searchAfterScopeChange(prev, 'project', { project: P1, projects: undefined }, [
        undefined,
        logs,
      ]),
    ).toEqual({ severity: 'error', log: undefined, since: '7d', project: P1, projects: undefined });
  });

  it('replaces both project keys (one project, a set, all)', () => {
    const prev = { project: P1, q: 'x' };
    expect(
      searchAfterScopeChange(prev, 'project', { project: undefined, projects: `${P1},${P2}` }, []),
    ).toEqual({ project: undefined, projects: `${P1},${P2}`, q: 'x' });
  });

  it('drops nothing when the chosen scope is the one already in place', () => {
    const prev = { project: P1, log: 'abc' };
    expect(searchAfterScopeChange(prev, 'project', { project: P1 }, [logs])).toEqual({
      project: P1,
      projects: undefined,
      log: 'abc',
    });
  });
});
