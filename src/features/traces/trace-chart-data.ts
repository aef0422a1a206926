import type { TraceRow } from '../../api/queries/traces';
import { formatShortUtc } from '../../lib/format-short-time';
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

/**
 * The selected time range as the read covered it (epoch ms), and whether every page of it is
 * loaded. The list comes newest first, so what is loaded is always the newest part.
 */
export type TraceChartRange = { from: number; to: number; complete: boolean };

export type TraceChartData = {
  ok: TracePoint[];
  error: TracePoint[];
  /** The whole selected range (widened only to hold a point outside it). */
  xDomain: [number, number];
  xTicks: number[];
  /** The x axis's span, for `formatUtcTick`. */
  xSpanMs: number;
  /**
   * Where the loaded traces begin: the oldest loaded start, or the range's start once every
   * page is loaded. Older than this and within the range, traces are not loaded yet.
   */
  loadedFrom: number;
  /** The part of the range whose traces are not loaded yet, or null when all of it is. */
  notLoaded: [number, number] | null;
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
 * The duration-over-time scatter of the loaded traces over the whole selected range: traces
 * with an error span in their own series (drawn last, on top), the axes' ranges and ticks, and
 * the older part of the range that is not loaded yet. A trace with an unreadable start is left
 * out.
 */
export function traceChartData(
  rows: readonly TraceRow[],
  scale: DurationScale,
  range: TraceChartRange,
): TraceChartData {
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
  const oldest = Math.min(...xs);
  // A point outside the range (a clock ahead of ours) widens the axis rather than vanishing.
  let from = Math.min(range.from, oldest);
  let to = Math.max(range.to, ...xs);
  if (!(to - from >= MINUTE)) {
    from = Math.min(from, to - HOUR);
    to = Math.max(to, from + HOUR);
  }
  const loadedFrom = range.complete || all.length === 0 ? from : Math.max(from, oldest);
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
    loadedFrom,
    notLoaded: loadedFrom > from ? [from, loadedFrom] : null,
    yDomain: y.domain,
    yTicks: y.ticks,
  };
}

/**
 * What the chart plots, in words beside it: every trace of the range, or which part of the
 * range the loaded (newest) traces cover and that older ones are not loaded yet.
 */
export function chartCoverageText(count: number, data: TraceChartData): string {
  const traces = `${count.toLocaleString('en-US')} ${count === 1 ? 'trace' : 'traces'}`;
  if (data.notLoaded === null)
    return count === 1 ? 'The only trace in the range' : `All ${traces} in the range`;
  const end = data.xDomain[1];
  return `The newest ${traces}, from ${formatShortUtc(new Date(data.loadedFrom).toISOString())} to ${formatShortUtc(new Date(end).toISOString())} UTC; older ones in the range are not loaded yet`;
}
