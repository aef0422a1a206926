import { describe, expect, it } from 'vitest';
import type { Issue } from '../../api/queries/issues';
import { triageSignature } from './triage-signature';

const ID = '00000000-0000-4000-8000-000000000001';
const TEAM = '00000000-0000-4000-8000-000000000077';

function issue(over: Partial<Issue> = {}): Issue {
  return {
    id: ID,
    status: 'unresolved',
    priority: 'high',
    priority_source: 'derived',
    assignee: null,
    occurrence_count: 1,
    last_seen_at: '2026-11-20T00:00:00.000Z',
    ...over,
  } as Issue;
}

const listKey = ['issues', 'list', { since: '24h' }] as const;
const list = (...issues: Issue[]) => ({
  pages: [{ issues, next_cursor: null, since: '2026-11-19T00:00:00.000Z' }],
  pageParams: [null],
});

describe('triageSignature', () => {
  it('changes with status, priority, its source and the assignee of a listed issue', () => {
    const base = triageSignature(listKey, list(issue()));
    expect(base?.kind).toBe('issues');
    for (const over of [
      { status: 'resolved' as const },
      { priority: 'low' as const },
      { priority_source: 'manual' as const },
      { assignee: { type: 'team' as const, team_id: TEAM, slug: 'platform', name: 'Platform' } },
    ]) {
      expect(triageSignature(listKey, list(issue(over)))?.value).not.toBe(base?.value);
    }
  });

  it('does not change with new occurrences or a moved range', () => {
    const base = triageSignature(listKey, list(issue()));
    const later = list(issue({ occurrence_count: 7, last_seen_at: '2026-11-21T00:00:00.000Z' }));
    later.pages[0]!.since = '2026-11-20T00:00:00.000Z';
    expect(triageSignature(listKey, later)).toEqual(base);
  });

  it('reads the issue of a detail page and the ids of the inbox', () => {
    const detail = triageSignature(['issues', 'detail', ID, 'issue'], issue());
    expect(detail).toEqual(triageSignature(listKey, list(issue())));
    const inbox = {
      pages: [{ notifications: [{ id: 'n2' }, { id: 'n1' }], unread: 1, read_at: null }],
      pageParams: [null],
    };
    expect(triageSignature(['issues', 'notifications'], inbox)).toEqual({
      kind: 'notifications',
      value: 'n2,n1',
    });
  });

  it('ignores reads that carry no triage', () => {
    expect(triageSignature(['issues', 'histograms', {}], { issues: [] })).toBeNull();
    expect(triageSignature(['issues', 'detail', ID, 'activity'], { pages: [] })).toBeNull();
    expect(triageSignature(['logs', 'list', {}], list(issue()))).toBeNull();
    expect(triageSignature(listKey, undefined)).toBeNull();
  });
});
