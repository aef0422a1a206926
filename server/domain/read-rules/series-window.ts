import { invalid } from './read-rule-error';
import { parseTimeRange } from './time-range';

/** Bucket sizes of series and volume (spec "Telemetry reads": `interval`). */
export const INTERVALS = {
  '1m': 60_000,
  '5m': 300_000,
  '15m': 900_000,
  '1h': 3_600_000,
  '6h': 21_600_000,
  '1d': 86_400_000,
} as const;
export type Interval = keyof typeof INTERVALS;
export const INTERVAL_NAMES = Object.keys(INTERVALS) as Interval[];

export const MAX_RANGE_DAYS = 31;
export const MAX_RANGE_MS = MAX_RANGE_DAYS * 86_400_000;
export const MAX_BUCKETS = 500;
/** `auto` picks the smallest interval giving at most this many buckets: a readable chart. */
export const AUTO_MAX_BUCKETS = 200;

export type SeriesWindow = {
  /** The range as asked (epoch ms): `since` inclusive, `until` exclusive. */
  since: number;
  until: number;
  interval: Interval;
  stepMs: number;
  /** The range widened to whole intervals from the epoch (UTC): `from` floored, `to` ceiled. */
  from: number;
  to: number;
  bucketCount: number;
};

const widen = (since: number, until: number, step: number) => {
  const from = Math.floor(since / step) * step;
  const to = Math.ceil(until / step) * step;
  return { from, to, bucketCount: (to - from) / step };
};

/**
 * Spec "Series and volume": `since` required, `until` RFC3339 defaulting to the request time
 * (`futureUntil: false` refuses a later one), at most 31 days, `interval` `auto` (default) or
 * a fixed size; a fixed size giving more than 500 buckets is refused.
 */
export function parseSeriesWindow(
  q: { since?: string; until?: string; interval?: string },
  now: number,
  opts: { futureUntil: boolean },
): SeriesWindow {
  if (q.since === undefined) throw invalid('since is required');
  const range = parseTimeRange({ since: q.since, until: q.until }, now);
  const since = range.since ?? now;
  const until = range.until ?? now;
  if (!opts.futureUntil && until > now) throw invalid('until must not be in the future');
  if (until <= since) throw invalid('until must be later than since');
  if (until - since > MAX_RANGE_MS)
    throw invalid(`the range from since to until must be at most ${MAX_RANGE_DAYS} days`);
  const asked = q.interval ?? 'auto';
  if (asked === 'auto') {
    for (const interval of INTERVAL_NAMES) {
      const stepMs = INTERVALS[interval];
      const w = widen(since, until, stepMs);
      if (w.bucketCount <= AUTO_MAX_BUCKETS) return { since, until, interval, stepMs, ...w };
    }
  }
  const interval = INTERVAL_NAMES.find((i) => i === asked);
  if (interval === undefined) throw invalid(`interval must be auto, ${INTERVAL_NAMES.join(', ')}`);
  const stepMs = INTERVALS[interval];
  const w = widen(since, until, stepMs);
  if (w.bucketCount > MAX_BUCKETS)
    throw invalid(
      `interval ${interval} gives ${w.bucketCount} buckets; at most ${MAX_BUCKETS} are allowed (choose a larger interval or a shorter range)`,
    );
  return { since, until, interval, stepMs, ...w };
}

/** The start time of each bucket, oldest first. */
export const bucketStarts = (w: SeriesWindow): number[] =>
  Array.from({ length: w.bucketCount }, (_, i) => w.from + i * w.stepMs);

/** `response_version` of routes that have only version 1. */
export function parseVersionOne(value: string | undefined): 1 {
  if (value === undefined || value === '1') return 1;
  throw invalid('response_version must be 1');
}
