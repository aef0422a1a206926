/** Logs of a trace are read this far around the trace's own time. */
const LOGS_MARGIN_MS = 15 * 60_000;

/**
 * The logs page's search for the logs of one trace: its exact `trace_id`, the project that
 * holds the span, and a range around the trace (its logs may be older than the default 24 h).
 */
export function traceLogsSearch(
  traceId: string,
  projectId: string,
  traceStartMs: number,
  traceDurationMs: number,
): { trace_id: string; project: string; projects: undefined; since: string; until: string } {
  return {
    trace_id: traceId,
    project: projectId,
    projects: undefined,
    since: new Date(traceStartMs - LOGS_MARGIN_MS).toISOString(),
    until: new Date(traceStartMs + Math.ceil(traceDurationMs) + LOGS_MARGIN_MS).toISOString(),
  };
}
