import type { Db } from '../../sqlite/database';
import { releaseRowDeltas, type StoredItem } from '../../rows/release-row-deltas';

export type { StoredItem } from '../../rows/release-row-deltas';

/**
 * Keeps `release_rows` (with `release_row_issues` and `release_row_traces`) current: called
 * inside the ingest transaction with the items it really stored, so a duplicate is never
 * counted. A trace counts once per row; it becomes an error trace of the row when one of its
 * spans in the row failed, also when that span arrives in a later batch.
 */
export function releaseRollup(db: Db) {
  const upsertRow = db.prepare(`INSERT INTO release_rows (project_id, release, environment,
      service_name, issue_count, log_count, trace_span_count, action_count, metric_count,
      trace_count, error_trace_count, first_seen_at, last_seen_at)
    VALUES (@project_id, @release, @environment, @service_name, @issues, @logs, @spans, @actions,
      @metrics, @traces, @error_traces, @first, @last)
    ON CONFLICT (project_id, release, environment, service_name) DO UPDATE SET
      issue_count = issue_count + excluded.issue_count,
      log_count = log_count + excluded.log_count,
      trace_span_count = trace_span_count + excluded.trace_span_count,
      action_count = action_count + excluded.action_count,
      metric_count = metric_count + excluded.metric_count,
      trace_count = trace_count + excluded.trace_count,
      error_trace_count = error_trace_count + excluded.error_trace_count,
      first_seen_at = MIN(first_seen_at, excluded.first_seen_at),
      last_seen_at = MAX(last_seen_at, excluded.last_seen_at)`);
  const addIssue = db.prepare(`INSERT OR IGNORE INTO release_row_issues
    (project_id, release, environment, service_name, issue_id) VALUES (?, ?, ?, ?, ?)`);
  const traceFlag = db.prepare<[string, string, string, string, string], { has_error: number }>(
    `SELECT has_error FROM release_row_traces WHERE project_id = ? AND release = ?
       AND environment = ? AND service_name = ? AND trace_id = ?`,
  );
  const putTrace = db.prepare(`INSERT INTO release_row_traces
      (project_id, release, environment, service_name, trace_id, has_error) VALUES (?, ?, ?, ?, ?, ?)
    ON CONFLICT (project_id, release, environment, service_name, trace_id)
    DO UPDATE SET has_error = excluded.has_error`);

  return function write(projectId: string, items: readonly StoredItem[]): void {
    for (const { issueIds, traceErrors, ...row } of releaseRowDeltas(items)) {
      const ids = [projectId, row.release, row.environment, row.service_name] as const;
      for (const issueId of issueIds) {
        if (addIssue.run(...ids, issueId).changes === 1) row.issues += 1;
      }
      for (const [traceId, error] of traceErrors) {
        const before = traceFlag.get(...ids, traceId);
        if (before === undefined) {
          putTrace.run(...ids, traceId, error ? 1 : 0);
          row.traces += 1;
          if (error) row.error_traces += 1;
        } else if (error && before.has_error === 0) {
          putTrace.run(...ids, traceId, 1);
          row.error_traces += 1;
        }
      }
      upsertRow.run({ project_id: projectId, ...row });
    }
  };
}

export type ReleaseRollup = ReturnType<typeof releaseRollup>;
