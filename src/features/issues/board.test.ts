import { describe, expect, it } from 'vitest';
import type { BulkResult, Issue } from '../../api/queries/issues';
import {
  assigneeValueOf,
  culpritOf,
  derivedPrioritiesLost,
  histogramBatches,
  initialsOf,
  liveIssueOf,
  matchesBoard,
  mergeLiveIssues,
  planBulk,
  planUndo,
  sortIssues,
  sparklineLabel,
} from './board';

const P1 = '11111111-1111-4111-8111-111111111111';
const P2 = '22222222-2222-4222-8222-222222222222';
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

function issue(n: number, over: Partial<Issue> = {}): Issue {
  return {
    id: id(n),
    project_id: P1,
    fingerprint: `fp${n}`,
    severity: 'error',
    triage: { effective_severity: 'error', ignored: false, rule_applied: false },
    title: `Issue ${n}`,
    message: `message ${n}`,
    stack_trace: null,
    attributes: {},
    environment: 'production',
    release: 'web@1.0.0',
    service_name: 'web',
    trace_id: null,
    next_action: { code: 'none' } as Issue['next_action'],
    occurrence_count: n,
    first_seen_at: `2026-11-0${(n % 9) + 1}T00:00:00.000Z`,
    last_seen_at: '2026-11-20T00:00:00.000Z',
    status: 'unresolved',
    priority: 'high',
    priority_source: 'derived',
    assignee: null,
    ...over,
  };
}

describe('planBulk', () => {
  it('splits by project and into chunks of 100', () => {
    const many = Array.from({ length: 150 }, (_, i) => issue(i + 1));
    const other = [issue(500, { project_id: P2 })];
    const plan = planBulk([...many.slice(0, 50), ...other, ...many.slice(50)], {
      status: 'resolved',
    });
    expect(plan.map((r) => [r.projectId, r.issueIds.length])).toEqual([
      [P1, 100],
      [P1, 50],
      [P2, 1],
    ]);
  });
});

describe('planUndo', () => {
  it('puts back the previous value of updated issues only, grouped by value', () => {
    const before = new Map(
      [
        issue(1, { status: 'unresolved' }),
        issue(2, { status: 'archived' }),
        issue(3, { status: 'unresolved', project_id: P2 }),
        issue(4, { status: 'resolved' }),
      ].map((i) => [i.id, i]),
    );
    const results: BulkResult[] = [
      { issueId: id(1), outcome: 'updated', issue: null },
      { issueId: id(2), outcome: 'updated', issue: null },
      { issueId: id(3), outcome: 'updated', issue: null },
      { issueId: id(4), outcome: 'unchanged', issue: null },
      { issueId: id(9), outcome: 'not_found', issue: null },
    ];
    const plan = planUndo({ status: 'resolved' }, results, before);
    expect(plan).toEqual([
      { projectId: P1, issueIds: [id(1)], change: { status: 'unresolved' } },
      { projectId: P2, issueIds: [id(3)], change: { status: 'unresolved' } },
      { projectId: P1, issueIds: [id(2)], change: { status: 'archived' } },
    ]);
  });

  it('restores assignees as user id, team or none', () => {
    const team = { type: 'team' as const, team_id: id(77), slug: 'platform', name: 'Platform' };
    expect(assigneeValueOf(null)).toBe('none');
    expect(assigneeValueOf(team)).toBe(`team:${id(77)}`);
    const before = new Map([issue(1, { assignee: team })].map((i) => [i.id, i]));
    const plan = planUndo(
      { assignee: 'none' },
      [{ issueId: id(1), outcome: 'updated', issue: null }],
      before,
    );
    expect(plan[0]?.change).toEqual({ assignee: `team:${id(77)}` });
  });

  it('puts back no assignee, a person and a team exactly, each as its own request', () => {
    const team = { type: 'team' as const, team_id: id(77), slug: 'platform', name: 'Platform' };
    const person = {
      type: 'user' as const,
      user_id: id(88),
      name: 'Ada Okafor',
      email: 'demo@lookout.dev',
    };
    const before = new Map(
      [issue(1), issue(2, { assignee: team }), issue(3, { assignee: person })].map((i) => [
        i.id,
        i,
      ]),
    );
    const results: BulkResult[] = [1, 2, 3].map((n) => ({
      issueId: id(n),
      outcome: 'updated',
      issue: null,
    }));
    expect(planUndo({ assignee: id(99) }, results, before)).toEqual([
      { projectId: P1, issueIds: [id(1)], change: { assignee: 'none' } },
      { projectId: P1, issueIds: [id(2)], change: { assignee: `team:${id(77)}` } },
      { projectId: P1, issueIds: [id(3)], change: { assignee: id(88) } },
    ]);
  });
});

describe('derivedPrioritiesLost', () => {
  const before = new Map(
    [
      issue(1, { priority: 'high', priority_source: 'derived' }),
      issue(2, { priority: 'medium', priority_source: 'manual' }),
      issue(3, { priority: 'low', priority_source: 'derived' }),
    ].map((i) => [i.id, i]),
  );
  const results: BulkResult[] = [
    { issueId: id(1), outcome: 'updated', issue: null },
    { issueId: id(2), outcome: 'updated', issue: null },
    { issueId: id(3), outcome: 'unchanged', issue: null },
  ];

  it('names the updated issues whose priority was derived: their undo leaves it manual', () => {
    expect(derivedPrioritiesLost({ priority: 'low' }, results, before).map((i) => i.id)).toEqual([
      id(1),
    ]);
  });

  it('is empty for status and assignee changes, which undo restores exactly', () => {
    expect(derivedPrioritiesLost({ status: 'resolved' }, results, before)).toEqual([]);
    expect(derivedPrioritiesLost({ assignee: 'none' }, results, before)).toEqual([]);
  });
});

describe('live issues', () => {
  const v1 = (over: Record<string, unknown>) => ({
    ...issue(1),
    status: 'ignored',
    priority: undefined,
    assignee: undefined,
    ...over,
  });
  it('reads a new issue with derived priority and no assignee; archived from ignored', () => {
    const live = liveIssueOf(v1({ occurrence_count: 1 }) as never);
    expect(live?.known).toBe(true);
    expect(live?.issue.status).toBe('archived');
    expect(live?.issue.priority).toBe('high');
    expect(live?.issue.assignee).toBeNull();
  });
  it('does not claim to know an older issue', () => {
    expect(liveIssueOf(v1({ occurrence_count: 4 }) as never)?.known).toBe(false);
    expect(liveIssueOf({ id: id(1), project_id: P1 })).toBeNull();
  });
  it('matches the board filters and merges new ones on top by id', () => {
    const fresh = issue(2, { occurrence_count: 1 });
    expect(
      matchesBoard(fresh, { since: '24h', status: 'unresolved' }, '2026-11-19T00:00:00Z', [P1]),
    ).toBe(true);
    expect(matchesBoard(fresh, { since: '24h' }, '2026-11-19T00:00:00Z', [P2])).toBe(false);
    expect(
      matchesBoard(fresh, { since: '24h', assignee: 'me' }, '2026-11-19T00:00:00Z', null),
    ).toBe(false);
    const merged = mergeLiveIssues([issue(1), issue(2)], [issue(3), issue(2)]);
    expect(merged.map((i) => i.id)).toEqual([id(3), id(1), id(2)]);
  });
});

describe('rows', () => {
  it('sorts loaded rows by occurrences or first seen; last seen keeps the service order', () => {
    const rows = [issue(1), issue(3), issue(2)];
    expect(sortIssues(rows, 'last_seen')).toBe(rows);
    expect(sortIssues(rows, 'occurrences').map((i) => i.occurrence_count)).toEqual([3, 2, 1]);
  });
  it('names the culprit from the first in-app frame, else the message', () => {
    expect(
      culpritOf({
        message: 'boom',
        stack_trace:
          'TypeError: boom\n    at charge (src/payments/charge.ts:88:11)\n    at node:internal/x (node:internal/x.js:1:1)',
      }),
    ).toContain('charge');
    expect(culpritOf({ message: 'boom', stack_trace: null })).toBe('boom');
  });
  it('makes initials', () => {
    expect(initialsOf('Chen Wei', 'chen@lookout.dev')).toBe('CW');
    expect(initialsOf(null, 'oncall-bot@lookout.dev')).toBe('OB');
  });
});

describe('histograms', () => {
  it('batches loaded ids by 100 in load order', () => {
    const ids = Array.from({ length: 250 }, (_, n) => id(n));
    const batches = histogramBatches(ids);
    expect(batches.map((b) => b.length)).toEqual([100, 100, 50]);
    expect(batches.flat()).toEqual(ids);
    expect(histogramBatches([])).toEqual([]);
  });

  it('says what a sparkline covers', () => {
    expect(sparklineLabel({ kind: 'relative', amount: 24, unit: 'h' })).toBe(
      'Occurrences, last 24 hours',
    );
    expect(sparklineLabel({ kind: 'relative', amount: 1, unit: 'd' })).toBe(
      'Occurrences, last day',
    );
    expect(
      sparklineLabel({ kind: 'absolute', since: '2026-11-20T14:00:00.000Z', until: undefined }),
    ).toMatch(/^Occurrences since .*2026/);
  });
});
