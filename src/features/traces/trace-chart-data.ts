import type { TraceRow } from '../../api/queries/traces';
import { utcTimeTicks } from '../../lib/time-ticks';

/** One trace as a point: x is its start (epoch ms), y its duration on the chart's axis. */
export type TracePoint = {
  traceId: string;
  x: number;
  y: number;
  /** The real duration (ms); `y` differs only when a log axis lifts a zero to its floor. */
  durationMs: number;
  name: string;
  service: string;
  errorSpans: number;
  startedAt: string;
};

export type DurationScale = 'log' | 'linear';

export type TraceChartData = {
  ok: TracePoint[];
  error: TracePoint[];
  xDomain: [number, number];
  xTicks: number[];
  /** Whether the x ticks show a day (`3 May`) rather than a time of day (`14:05`). */
  /** The x axis's span, for `formatUtcTick`. */
  xSpanMs: number;
  yDomain: [number, number];
  /** Explicit ticks on a log axis (powers of ten); undefined lets the chart pick linear ticks. */
  yTicks: number[] | undefined;
};

/** A log axis cannot show 0: shorter traces sit on 1 µs. */
export const LOG_FLOOR_MS = 0.001;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** At most this many time ticks. */
const MAX_X_TICKS = 7;

/** Room left at each end of the time axis, as a share of the loaded span. */
export const X_ROOM = 0.015;

/** The log axis's range: whole powers of ten around the durations, and a tick at each. */
export function logDomain(durations: readonly number[]): {
  domain: [number, number];
  ticks: number[];
} {
  const lifted = durations.map((d) => Math.max(d, LOG_FLOOR_MS));
  const low = Math.floor(Math.log10(Math.min(...lifted, 1)));
  const high = Math.max(Math.ceil(Math.log10(Math.max(...lifted, 1))), low + 1);
  const ticks: number[] = [];
  for (let e = low; e <= high; e++) ticks.push(Number((10 ** e).toPrecision(1)));
  return { domain: [ticks[0] ?? 1, ticks[ticks.length - 1] ?? 10], ticks };
}

/** The linear axis's range: from 0 to a round value above the longest duration. */
function linearMax(durations: readonly number[]): number {
  const max = Math.max(...durations, 0);
  if (max <= 0) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(max));
  const nice = [1, 2, 2.5, 5, 10].find((m) => m * magnitude >= max) ?? 10;
  return nice * magnitude;
}

/**
 * The duration-over-time scatter of the loaded traces: traces with an error span in their own
 * series (drawn last, on top), the axes' ranges and ticks. Only draws what was loaded; a
 * trace with an unreadable start is left out.
 */
export function traceChartData(rows: readonly TraceRow[], scale: DurationScale): TraceChartData {
  const ok: TracePoint[] = [];
  const error: TracePoint[] = [];
  for (const row of rows) {
    const x = Date.parse(row.started_at);
    if (!Number.isFinite(x)) continue;
    const point: TracePoint = {
      traceId: row.trace_id,
      x,
      y: scale === 'log' ? Math.max(row.duration_ms, LOG_FLOOR_MS) : row.duration_ms,
      durationMs: row.duration_ms,
      name: row.root_span_name,
      service: row.root_service_name,
      errorSpans: row.error_span_count,
      startedAt: row.started_at,
    };
    (row.error_span_count > 0 ? error : ok).push(point);
  }
  const all = [...ok, ...error];
  const xs = all.map((p) => p.x);
  let from = Math.min(...xs);
  let to = Math.max(...xs);
  if (all.length === 0) {
    from = 0;
    to = HOUR;
  } else if (to - from < MINUTE) {
    // One moment: a minute either side, so the points are not on the chart's edge.
    from -= MINUTE;
    to += MINUTE;
  } else {
    // A little room either side, so the first and last points are not cut by the edge.
    const room = (to - from) * X_ROOM;
    from -= room;
    to += room;
  }
  const durations = all.map((p) => p.durationMs);
  const y =
    scale === 'log'
      ? logDomain(durations)
      : { domain: [0, linearMax(durations)] as [number, number], ticks: undefined };
  return {
    ok,
    error,
    xDomain: [from, to],
    xTicks: utcTimeTicks(from, to, MAX_X_TICKS),
    xSpanMs: to - from,
    yDomain: y.domain,
    yTicks: y.ticks,
  };
}
