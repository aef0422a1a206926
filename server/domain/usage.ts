/**
 * Usage accounting rules (spec: Account usage, Quota state, Limits). Items are counted per
 * project, UTC day and stream by time of receipt. Quotas are per limit name; in account
 * usage they group as `events` (issue events, trace spans) and `bytes` (log and metric bytes).
 */
export const STREAMS = ['issues', 'logs', 'traces', 'actions', 'metrics'] as const;
export type Stream = (typeof STREAMS)[number];

export const LIMIT_NAMES = ['issue_events', 'log_bytes', 'metric_bytes', 'trace_spans'] as const;
export type LimitName = (typeof LIMIT_NAMES)[number];

export type StreamUsage = { events: number; bytes: number };
export type UsageByStream = Record<Stream, StreamUsage>;

export const emptyUsage = (): UsageByStream => ({
  issues: { events: 0, bytes: 0 },
  logs: { events: 0, bytes: 0 },
  traces: { events: 0, bytes: 0 },
  actions: { events: 0, bytes: 0 },
  metrics: { events: 0, bytes: 0 },
});

/** The amount a limit measures, from usage by stream. */
export function limitAmount(limit: LimitName, usage: UsageByStream): number {
  switch (limit) {
    case 'issue_events':
      return usage.issues.events;
    case 'trace_spans':
      return usage.traces.events;
    case 'log_bytes':
      return usage.logs.bytes;
    case 'metric_bytes':
      return usage.metrics.bytes;
  }
}

/**
 * The first limit a batch would take past its quota, or null when it fits. A batch that
 * adds nothing to a limit never fails on it, so an exhausted log quota does not block issues.
 */
export function exceededLimit(
  current: UsageByStream,
  added: UsageByStream,
  quotas: Record<LimitName, number>,
): LimitName | null {
  for (const limit of LIMIT_NAMES) {
    const adds = limitAmount(limit, added);
    if (adds > 0 && limitAmount(limit, current) + adds > quotas[limit]) return limit;
  }
  return null;
}

const DAY_MS = 86_400_000;
export const utcDay = (ms: number): number => Math.floor(ms / DAY_MS) * DAY_MS;

/** The usage period: the calendar month (UTC) containing `ms`; the end is exclusive. */
export function usagePeriod(ms: number): { start: number; end: number } {
  const d = new Date(ms);
  return {
    start: Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1),
    end: Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1),
  };
}
