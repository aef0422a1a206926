import type { Deployment, ReleaseRow, TraceHealth } from '../../api/queries/releases';
import { formatBasisPoints } from '../../lib/format-share';

/** A release row's identity: project, release, environment and service. */
export type ReleaseIdentity = Pick<
  ReleaseRow,
  'project_id' | 'release' | 'environment' | 'service_name'
>;

/** One key per row (the list's row id). */
export function releaseRowKey(row: ReleaseIdentity): string {
  return JSON.stringify([row.project_id, row.release, row.environment, row.service_name]);
}

export function sameRelease(a: ReleaseIdentity, b: ReleaseIdentity): boolean {
  return (
    a.project_id === b.project_id &&
    a.release === b.release &&
    a.environment === b.environment &&
    a.service_name === b.service_name
  );
}

export type TraceHealthView = {
  tone: 'none' | 'ok' | 'error';
  /** The share, e.g. `3.2%`, or `No traces`. */
  short: string;
  /** The whole sentence: `3.2% of 1,240 traces had an error span`. */
  text: string;
};

const count = (n: number) => n.toLocaleString('en-US');
const traces = (n: number) => `${count(n)} ${n === 1 ? 'trace' : 'traces'}`;

/**
 * The row's trace health in words. It is the share of the row's traces with an error span,
 * never an error rate of requests; a row without traces says so.
 */
export function traceHealthView(health: TraceHealth): TraceHealthView {
  if (health.status === 'unknown' || health.trace_count === 0) {
    return { tone: 'none', short: 'No traces', text: 'No traces' };
  }
  const share = formatBasisPoints(health.error_rate_basis_points);
  if (health.status === 'no_errors_observed') {
    return {
      tone: 'ok',
      short: share,
      text: `${share} of ${traces(health.trace_count)} had an error span`,
    };
  }
  return {
    tone: 'error',
    short: share,
    text: `${share} of ${traces(health.trace_count)} had an error span (${count(health.error_trace_count)} with errors)`,
  };
}

/** The five counts of a row, in the spec's order of signals. */
export function rowCounts(row: ReleaseRow): { key: SignalKey; label: string; value: number }[] {
  return [
    { key: 'issues', label: 'Issues', value: row.issue_count },
    { key: 'traces', label: 'Spans', value: row.trace_span_count },
    { key: 'logs', label: 'Logs', value: row.log_count },
    { key: 'actions', label: 'Actions', value: row.action_count },
    { key: 'metrics', label: 'Metric samples', value: row.metric_count },
  ];
}

export type SignalKey = 'issues' | 'traces' | 'logs' | 'actions' | 'metrics';

/** The spec's order of a release's signals. */
export const SIGNAL_ORDER: readonly SignalKey[] = [
  'issues',
  'traces',
  'logs',
  'actions',
  'metrics',
];

const KNOWN_NEXT_ACTIONS: Record<string, SignalKey | 'none'> = {
  'inspect_release_issues/telemetry_issues': 'issues',
  'inspect_release_traces/trace_explorer': 'traces',
  'inspect_release_logs/telemetry_logs': 'logs',
  'inspect_release_actions/telemetry_actions': 'actions',
  'inspect_release_metrics/telemetry_metrics': 'metrics',
  'review_release_telemetry/telemetry_reads': 'none',
};

/**
 * The section a row's `next_action` names: a signal, `none` (the row has no signal to
 * inspect), or `null` for a pair the console does not know (shown, not followed).
 */
export function nextSection(action: { code: string; target?: string }): SignalKey | 'none' | null {
  return KNOWN_NEXT_ACTIONS[`${action.code}/${action.target ?? ''}`] ?? null;
}

/** Milliseconds from start to finish (0 when the times are unreadable or reversed). */
export function deploymentDurationMs(d: Pick<Deployment, 'started_at' | 'finished_at'>): number {
  const ms = Date.parse(d.finished_at) - Date.parse(d.started_at);
  return Number.isFinite(ms) && ms > 0 ? ms : 0;
}
