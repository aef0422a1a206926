import type { Store } from '../core/store/store';
import type { IssueAssigneeFilter, IssueRecord } from '../core/store/state/issues';
import {
  logFiltersOf,
  type IssueCondition,
  type RuleCondition,
  type TraceCondition,
} from './alert-conditions';

/** One window: [start, end) in epoch ms. */
export type Bucket = { start: number; end: number };

/** Telemetry the measures read: only the store's ports, so every tier answers alike. */
export type MeasureStore = Pick<
  Store,
  'logs' | 'metrics' | 'traces' | 'issues' | 'occurrences' | 'alerts'
>;

/** Traces read per measure (root durations and error shares are over at most these). */
export const TRACE_SAMPLE_CAP = 20_000;
/** Issues looked at per measure (most recently seen first). */
export const ISSUE_CANDIDATES = 200;
/** Occurrences read per issue per measure. */
export const OCCURRENCE_CAP = 5_000;

/**
 * The rule's value in each bucket (null: nothing to measure, e.g. no metric samples or no
 * traces). Issue rules: new issues or regressions counted in the bucket, or the largest event
 * (user) count of one issue; snoozed issues (at `now`) are left out.
 */
export async function measure(
  store: MeasureStore,
  rule: RuleCondition,
  projectId: string,
  buckets: Bucket[],
  now: number,
): Promise<(number | null)[]> {
  if (buckets.length === 0) return [];
  switch (rule.kind) {
    case 'log':
      // One exact count per bucket, in one read per project (never the logs themselves).
      return store.logs.count({
        projectIds: [projectId],
        ...logFiltersOf(rule.condition.query),
        traceId: null,
        status: 'active',
        buckets,
      });
    case 'metric': {
      const q = rule.condition.query;
      const first = buckets[0] as Bucket;
      const stepMs = first.end - first.start;
      const cells = await store.metrics.series({
        projectId,
        name: q.name,
        from: first.start,
        to: (buckets[buckets.length - 1] as Bucket).end,
        stepMs,
        groupBy: 'none',
        serviceName: q.service_name ?? null,
        release: q.release ?? null,
        environment: q.environment ?? null,
      });
      const byBucket = new Map(cells.cells.map((c) => [c.bucket, c]));
      return buckets.map((b) => {
        const c = byBucket.get(Math.round((b.start - first.start) / stepMs));
        if (!c || c.samples === 0) return null;
        if (q.aggregation === 'sum') return c.sum;
        if (q.aggregation === 'max') return c.max;
        return c.sum / c.samples;
      });
    }
    case 'trace':
      return traceMeasure(store, rule.condition, projectId, buckets);
    case 'issue':
      return issueMeasure(store, rule.condition, projectId, buckets, now);
  }
}

async function traceMeasure(
  store: MeasureStore,
  c: TraceCondition,
  projectId: string,
  buckets: Bucket[],
): Promise<(number | null)[]> {
  const from = (buckets[0] as Bucket).start;
  const to = (buckets[buckets.length - 1] as Bucket).end;
  // Newest first, strictly before `to` (an empty id sorts before every trace id).
  const rows = await store.traces.discover({
    projectIds: [projectId],
    serviceName: c.service,
    release: null,
    environment: null,
    status: null,
    since: from,
    minDurationMs: null,
    after: { time: to, traceId: '' },
    limit: TRACE_SAMPLE_CAP,
  });
  const roots = rows.filter((r) => r.root.serviceName === c.service);
  return buckets.map((b) => {
    const inside = roots.filter((r) => r.startedAt >= b.start && r.startedAt < b.end);
    if (inside.length === 0) return null;
    if (c.measure === 'error_share')
      return inside.filter((r) => r.errorSpanCount > 0).length / inside.length;
    const durations = inside.map((r) => r.endedAt - r.startedAt).sort((x, y) => x - y);
    const q = { p50: 0.5, p95: 0.95, p99: 0.99 }[c.measure];
    // Nearest rank: the smallest duration with at least q of the traces at or below it.
    return durations[Math.max(0, Math.ceil(q * durations.length) - 1)] ?? null;
  });
}

const assigneeFilter = (a: IssueCondition['filters']['assignee']): IssueAssigneeFilter | null => {
  if (a === undefined) return null;
  if (a === 'none') return { kind: 'none' };
  return 'user_id' in a
    ? { kind: 'user', accountId: a.user_id }
    : { kind: 'team', teamId: a.team_id };
};

/** A user of an occurrence: `user.id`, `user_id` or `user.email` among its attributes. */
function userOf(attributes: Record<string, unknown>): string | null {
  const user = attributes.user;
  if (user !== null && typeof user === 'object') {
    const u = user as Record<string, unknown>;
    if (typeof u.id === 'string' || typeof u.id === 'number') return String(u.id);
    if (typeof u.email === 'string') return u.email;
  }
  for (const k of ['user.id', 'user_id', 'user.email'])
    if (typeof attributes[k] === 'string' || typeof attributes[k] === 'number')
      return String(attributes[k]);
  return null;
}

async function issueMeasure(
  store: MeasureStore,
  c: IssueCondition,
  projectId: string,
  buckets: Bucket[],
  now: number,
): Promise<number[]> {
  const from = (buckets[0] as Bucket).start;
  const to = (buckets[buckets.length - 1] as Bucket).end;
  const f = c.filters;
  const listed = await store.issues.list({
    projectIds: [projectId],
    status: null,
    severity: f.severity ?? null,
    priority: null,
    assignee: assigneeFilter(f.assignee),
    serviceName: f.service ?? null,
    release: f.release ?? null,
    environment: f.environment ?? null,
    since: from,
    after: null,
    limit: ISSUE_CANDIDATES,
  });
  const snoozed = await store.alerts.snoozedIssues(
    listed.map((i) => i.id),
    now,
  );
  const issues = listed.filter((i) => !snoozed.has(i.id));
  const inBucket = (t: number, b: Bucket) => t >= b.start && t < b.end;
  if (c.event === 'new_issue')
    return buckets.map((b) => issues.filter((i) => inBucket(i.firstSeenAt, b)).length);
  if (c.event === 'regression') {
    const regressions: number[] = [];
    for (const issue of issues) {
      const activity = await store.issues.activity(issue.id, null, 100);
      // A regression is a status entry back to unresolved that ingestion made (no actor).
      for (const a of activity)
        if (
          a.type === 'status' &&
          a.actor === null &&
          a.value === 'unresolved' &&
          a.at >= from &&
          a.at < to
        )
          regressions.push(a.at);
    }
    return buckets.map((b) => regressions.filter((t) => inBucket(t, b)).length);
  }
  const values = buckets.map(() => 0);
  for (const issue of issues.filter((i: IssueRecord) => i.lastSeenAt >= from)) {
    const occurrences = await store.occurrences.list(
      issue.id,
      { time: to, id: '' },
      OCCURRENCE_CAP,
    );
    buckets.forEach((b, n) => {
      const inside = occurrences.filter((o) => inBucket(o.occurredAt, b));
      const count =
        c.event === 'event_count'
          ? inside.length
          : new Set(inside.map((o) => userOf(o.attributes)).filter((u) => u !== null)).size;
      values[n] = Math.max(values[n] ?? 0, count);
    });
  }
  return values;
}
