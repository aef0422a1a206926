import type { Db } from '../database';
import type { ReleaseListQuery, ReleaseRow, ReleasesStore } from '../store';

const marks = (n: number) => Array.from({ length: n }, () => '?').join(', ');

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

/** Release rows come from the `release_rows` rollup only (never from telemetry rows). */
export function sqliteReleases(db: Db): ReleasesStore {
  return {
    async list(q: ReleaseListQuery) {
      if (q.projectIds.length === 0) return [];
      const where = [`project_id IN (${marks(q.projectIds.length)})`];
      const args: (string | number)[] = [...q.projectIds];
      const exact: [string, string | null][] = [
        ['service_name', q.serviceName],
        ['release', q.release],
        ['environment', q.environment],
      ];
      for (const [column, value] of exact) {
        if (value === null) continue;
        where.push(`${column} = ?`);
        args.push(value);
      }
      if (q.since !== null) {
        where.push('last_seen_at >= ?');
        args.push(q.since);
      }
      if (q.after !== null) {
        where.push(
          '(last_seen_at, project_id, release, environment, service_name) < (?, ?, ?, ?, ?)',
        );
        args.push(
          q.after.time,
          q.after.projectId,
          q.after.release,
          q.after.environment,
          q.after.serviceName,
        );
      }
      args.push(q.limit);
      return db
        .prepare<(string | number)[], ReleaseDbRow>(
          `SELECT * FROM release_rows WHERE ${where.join(' AND ')}
           ORDER BY last_seen_at DESC, project_id DESC, release DESC, environment DESC, service_name DESC
           LIMIT ?`,
        )
        .all(...args)
        .map(toReleaseRow);
    },
  };
}
