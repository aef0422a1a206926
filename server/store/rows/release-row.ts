import type { ReleaseListQuery, ReleaseRow } from '../../core/store/telemetry/releases';
import { exactConditions } from './conditions';
import { and, raw, sql, type SqlDialect, type SqlFragment } from './sql';

export type ReleaseDbRow = {
  project_id: string;
  release: string;
  environment: string;
  service_name: string;
  issue_count: number;
  log_count: number;
  trace_span_count: number;
  action_count: number;
  metric_count: number;
  trace_count: number;
  error_trace_count: number;
  first_seen_at: number;
  last_seen_at: number;
};

export const toReleaseRow = (r: ReleaseDbRow): ReleaseRow => ({
  projectId: r.project_id,
  release: r.release,
  environment: r.environment,
  serviceName: r.service_name,
  issueCount: r.issue_count,
  logCount: r.log_count,
  traceSpanCount: r.trace_span_count,
  actionCount: r.action_count,
  metricCount: r.metric_count,
  traceCount: r.trace_count,
  errorTraceCount: r.error_trace_count,
  firstSeenAt: r.first_seen_at,
  lastSeenAt: r.last_seen_at,
});

/** The release list's order, newest first; its cursor compares the same tuple. */
export const RELEASE_ORDER =
  'last_seen_at DESC, project_id DESC, release DESC, environment DESC, service_name DESC';

/** A page of release rows, newest first; they come from the `release_rows` rollup only. */
export function releaseListStatement(q: ReleaseListQuery, d: SqlDialect): SqlFragment {
  const where = [
    d.anyOf('project_id', q.projectIds),
    ...exactConditions([
      ['service_name', q.serviceName],
      ['release', q.release],
      ['environment', q.environment],
    ]),
  ];
  if (q.since !== null) where.push(sql`last_seen_at >= ${q.since}`);
  const a = q.after;
  if (a !== null)
    where.push(sql`(last_seen_at, project_id, release, environment, service_name) <
      (${d.typed(a.time, 'bigint')}, ${d.typed(a.projectId, 'text')}, ${d.typed(a.release, 'text')},
       ${d.typed(a.environment, 'text')}, ${d.typed(a.serviceName, 'text')})`);
  return sql`SELECT * FROM release_rows WHERE ${and(where)}
    ORDER BY ${raw(RELEASE_ORDER)} LIMIT ${q.limit}`;
}
