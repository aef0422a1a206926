import { releaseRowDeltas, type StoredItem } from '../rows/release-row-deltas';
import { byKey } from './key-order';
import type { Sql } from './pg-database';
import { sql } from '../rows/sql';

const SEP = '\u0000';
const rowKey = (r: { release: string; environment: string; service_name: string }) =>
  [r.release, r.environment, r.service_name].join(SEP);

/**
 * Keeps `release_rows` (with `release_row_issues` and `release_row_traces`) current: called
 * inside the ingest transaction with the items it really stored, so a duplicate is never
 * counted. A trace counts once per row; it becomes an error trace of the row when one of its
 * spans in the row failed, also when that span arrives in a later batch. The ingest
 * transaction holds its account's lock, so no other batch of the project changes these rows
 * between the read of the trace flags and their write.
 */
export async function rollUpReleases(
  tx: Sql,
  projectId: string,
  items: readonly StoredItem[],
): Promise<void> {
  const rows = releaseRowDeltas(items).sort(
    byKey((r) => [r.release, r.environment, r.service_name]),
  );
  if (rows.length === 0) return;
  const byRow = new Map(rows.map((r) => [rowKey(r), r]));

  const issues = rows
    .flatMap((r) => [...r.issueIds].map((issueId) => ({ ...r, issueId })))
    .sort(byKey((r) => [r.release, r.environment, r.service_name, r.issueId]));
  if (issues.length > 0) {
    const added = await tx.rows<{
      release: string;
      environment: string;
      service_name: string;
    }>(sql`INSERT INTO release_row_issues (project_id, release, environment, service_name, issue_id)
       SELECT ${projectId}, * FROM unnest(${issues.map((i) => i.release)}::text[],
       ${issues.map((i) => i.environment)}::text[], ${issues.map((i) => i.service_name)}::text[],
       ${issues.map((i) => i.issueId)}::text[])
       ON CONFLICT DO NOTHING
       RETURNING release, environment, service_name`);
    for (const a of added) {
      const row = byRow.get(rowKey(a));
      if (row) row.issues += 1;
    }
  }

  const traces = rows
    .flatMap((r) => [...r.traceErrors].map(([traceId, error]) => ({ ...r, traceId, error })))
    .sort(byKey((t) => [t.release, t.environment, t.service_name, t.traceId]));
  if (traces.length > 0) {
    const stored = await tx.rows<{
      release: string;
      environment: string;
      service_name: string;
      trace_id: string;
      has_error: number;
    }>(sql`SELECT t.release, t.environment, t.service_name, t.trace_id, t.has_error
       FROM release_row_traces t
       JOIN unnest(${traces.map((t) => t.release)}::text[],
       ${traces.map((t) => t.environment)}::text[], ${traces.map((t) => t.service_name)}::text[],
       ${traces.map((t) => t.traceId)}::text[])
         AS u(release, environment, service_name, trace_id)
         ON t.release = u.release AND t.environment = u.environment
        AND t.service_name = u.service_name AND t.trace_id = u.trace_id
       WHERE t.project_id = ${projectId}`);
    const before = new Map(stored.map((s) => [rowKey(s) + SEP + s.trace_id, s.has_error]));
    const put: typeof traces = [];
    for (const t of traces) {
      const row = byRow.get(rowKey(t));
      if (!row) continue;
      const flag = before.get(rowKey(t) + SEP + t.traceId);
      if (flag === undefined) {
        put.push(t);
        row.traces += 1;
        if (t.error) row.error_traces += 1;
      } else if (t.error && flag === 0) {
        put.push(t);
        row.error_traces += 1;
      }
    }
    if (put.length > 0)
      await tx.run(sql`INSERT INTO release_row_traces
           (project_id, release, environment, service_name, trace_id, has_error)
         SELECT ${projectId}, * FROM unnest(${put.map((t) => t.release)}::text[],
         ${put.map((t) => t.environment)}::text[], ${put.map((t) => t.service_name)}::text[],
         ${put.map((t) => t.traceId)}::text[], ${put.map((t) => (t.error ? 1 : 0))}::int[])
         ON CONFLICT (project_id, release, environment, service_name, trace_id)
         DO UPDATE SET has_error = excluded.has_error`);
  }

  const col = <K extends keyof (typeof rows)[number]>(k: K) => rows.map((r) => r[k]);
  await tx.run(sql`INSERT INTO release_rows (project_id, release, environment, service_name, issue_count,
       log_count, trace_span_count, action_count, metric_count, trace_count, error_trace_count,
       first_seen_at, last_seen_at)
     SELECT ${projectId}, * FROM unnest(${col('release')}::text[], ${col('environment')}::text[],
     ${col('service_name')}::text[], ${col('issues')}::bigint[], ${col('logs')}::bigint[],
       ${col('spans')}::bigint[], ${col('actions')}::bigint[], ${col('metrics')}::bigint[],
       ${col('traces')}::bigint[], ${col('error_traces')}::bigint[], ${col('first')}::bigint[],
       ${col('last')}::bigint[])
     ON CONFLICT (project_id, release, environment, service_name) DO UPDATE SET
       issue_count = release_rows.issue_count + excluded.issue_count,
       log_count = release_rows.log_count + excluded.log_count,
       trace_span_count = release_rows.trace_span_count + excluded.trace_span_count,
       action_count = release_rows.action_count + excluded.action_count,
       metric_count = release_rows.metric_count + excluded.metric_count,
       trace_count = release_rows.trace_count + excluded.trace_count,
       error_trace_count = release_rows.error_trace_count + excluded.error_trace_count,
       first_seen_at = LEAST(release_rows.first_seen_at, excluded.first_seen_at),
       last_seen_at = GREATEST(release_rows.last_seen_at, excluded.last_seen_at)`);
}
