import type { ReleaseRow } from '../core/store/telemetry/releases';
import { iso } from './telemetry-views';

/**
 * Share of traces with an error span in basis points: rounded to the nearest, but kept off 0
 * while some trace failed and off 10000 while some did not, so the number never contradicts
 * the status.
 */
export function errorBasisPoints(traces: number, errorTraces: number): number {
  if (traces === 0 || errorTraces === 0) return 0;
  if (errorTraces >= traces) return 10_000;
  return Math.min(9_999, Math.max(1, Math.round((errorTraces * 10_000) / traces)));
}

/** The spec's order: the first signal type with data says where to look next. */
export function releaseNextAction(r: ReleaseRow): { code: string; target: string } {
  if (r.issueCount > 0) return { code: 'inspect_release_issues', target: 'telemetry_issues' };
  if (r.traceSpanCount > 0) return { code: 'inspect_release_traces', target: 'trace_explorer' };
  if (r.logCount > 0) return { code: 'inspect_release_logs', target: 'telemetry_logs' };
  if (r.actionCount > 0) return { code: 'inspect_release_actions', target: 'telemetry_actions' };
  if (r.metricCount > 0) return { code: 'inspect_release_metrics', target: 'telemetry_metrics' };
  return { code: 'review_release_telemetry', target: 'telemetry_reads' };
}

export function releaseView(r: ReleaseRow) {
  return {
    project_id: r.projectId,
    release: r.release,
    environment: r.environment,
    service_name: r.serviceName,
    issue_count: r.issueCount,
    log_count: r.logCount,
    trace_span_count: r.traceSpanCount,
    action_count: r.actionCount,
    metric_count: r.metricCount,
    first_seen_at: iso(r.firstSeenAt),
    last_seen_at: iso(r.lastSeenAt),
    trace_health: {
      status:
        r.traceCount === 0
          ? ('unknown' as const)
          : r.errorTraceCount > 0
            ? ('errors_observed' as const)
            : ('no_errors_observed' as const),
      trace_count: r.traceCount,
      error_trace_count: r.errorTraceCount,
      error_rate_basis_points: errorBasisPoints(r.traceCount, r.errorTraceCount),
    },
    next_action: releaseNextAction(r),
  };
}
