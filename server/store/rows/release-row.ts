import type { ReleaseRow } from '../../core/store/telemetry/releases';

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
