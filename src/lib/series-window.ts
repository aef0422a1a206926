/**
 * The bucket windows of the metric series and volume reads (spec, "Series and volume"): the
 * range is at most 31 days, `interval` is `auto` or one of six sizes, and a size giving more
 * than 500 buckets is refused. Buckets are whole intervals from the epoch (UTC): the service
 * floors `since` and ceils `until` to the interval before counting them.
 */
import { checkRangeLength, rangeBounds, readRangeOf, type ReadRange } from './read-range';
import type { TimeRangeSearch } from './time-range';

export const SERIES_INTERVALS = ['1m', '5m', '15m', '1h', '6h', '1d'] as const;
export type SeriesInterval = (typeof SERIES_INTERVALS)[number];
export type IntervalChoice = 'auto' | SeriesInterval;

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

export const INTERVAL_MS: Record<SeriesInterval, number> = {
  '1m': MINUTE_MS,
  '5m': 5 * MINUTE_MS,
  '15m': 15 * MINUTE_MS,
  '1h': 60 * MINUTE_MS,
  '6h': 6 * 60 * MINUTE_MS,
  '1d': DAY_MS,
};

/** The most buckets a fixed interval may give. */
export const MAX_BUCKETS = 500;
/** `auto` picks the smallest interval giving at most this many buckets. */
export const AUTO_MAX_BUCKETS = 200;

export const INTERVAL_LABELS: Record<IntervalChoice, string> = {
  auto: 'Auto',
  '1m': '1 minute',
  '5m': '5 minutes',
  '15m': '15 minutes',
  '1h': '1 hour',
  '6h': '6 hours',
  '1d': '1 day',
};

/** How many buckets an interval gives over `[since, until)`, after the service's widening. */
export function bucketCount(sinceMs: number, untilMs: number, interval: SeriesInterval): number {
  const size = INTERVAL_MS[interval];
  return Math.max(1, Math.ceil(untilMs / size) - Math.floor(sinceMs / size));
}

/**
 * The interval `auto` resolves to: the smallest giving at most 200 buckets (else `1d`). A
 * compact chart asks for fewer (`maxBuckets`), so its lines stay calm at its size.
 */
export function autoInterval(
  sinceMs: number,
  untilMs: number,
  maxBuckets = AUTO_MAX_BUCKETS,
): SeriesInterval {
  return SERIES_INTERVALS.find((i) => bucketCount(sinceMs, untilMs, i) <= maxBuckets) ?? '1d';
}

/** A compact chart's most buckets: an hour in minutes, a day in hours, a month in days. */
export const COMPACT_MAX_BUCKETS = 64;

/** The smallest fixed interval the service accepts over the range (at most 500 buckets). */
export function smallestAllowedInterval(sinceMs: number, untilMs: number): SeriesInterval | null {
  return SERIES_INTERVALS.find((i) => bucketCount(sinceMs, untilMs, i) <= MAX_BUCKETS) ?? null;
}

export type WindowCheck =
  | { ok: true; interval: SeriesInterval; buckets: number }
  | { ok: false; reason: 'range'; message: string }
  | { ok: false; reason: 'buckets'; buckets: number; message: string };

const count = (n: number) => n.toLocaleString('en-US');

/**
 * Whether a read over `[since, until)` with this interval is one the service accepts, with
 * the interval it will use and its number of buckets, or the reason it would be refused in
 * words a person can act on. Checked before sending, so a refusal is explained, not fetched.
 */
export function checkWindow(sinceMs: number, untilMs: number, choice: IntervalChoice): WindowCheck {
  const length = checkRangeLength(sinceMs, untilMs, 'charts');
  if (!length.ok) return { ok: false, reason: 'range', message: length.message };
  const interval = choice === 'auto' ? autoInterval(sinceMs, untilMs) : choice;
  const buckets = bucketCount(sinceMs, untilMs, interval);
  if (buckets > MAX_BUCKETS) {
    const smallest = smallestAllowedInterval(sinceMs, untilMs);
    const instead = smallest
      ? `choose ${INTERVAL_LABELS[smallest]} or longer`
      : 'choose a longer interval';
    return {
      ok: false,
      reason: 'buckets',
      buckets,
      message: `${INTERVAL_LABELS[interval]} buckets over this range make ${count(buckets)} points; the service draws at most ${count(MAX_BUCKETS)}. Use Auto, ${instead}, or a shorter time range.`,
    };
  }
  return { ok: true, interval, buckets };
}

/**
 * A chart read over the URL's range: the range as sent (a relative `since` stays compact, so
 * the query key does not move with the clock), its bounds at `now` (an open range ends now)
 * and whether the service takes it with this interval. Every bucketed chart plans its read
 * here, so a refused window is explained, not sent. `compact` picks a fixed interval giving
 * at most `COMPACT_MAX_BUCKETS` buckets, for a small chart.
 */
export function chartWindowOf(
  search: TimeRangeSearch,
  choice: IntervalChoice | 'compact',
  now: number,
): { range: ReadRange; bounds: { since: number; until: number }; window: WindowCheck } {
  const bounds = rangeBounds(search, now);
  const interval =
    choice === 'compact' ? autoInterval(bounds.since, bounds.until, COMPACT_MAX_BUCKETS) : choice;
  return {
    range: readRangeOf(search),
    bounds,
    window: checkWindow(bounds.since, bounds.until, interval),
  };
}

/** How long a bucket is, in words: `15-minute`, `1-hour`, `1-day`. */
export function bucketWords(interval: SeriesInterval): string {
  return INTERVAL_LABELS[interval].replace(/^(\d+) (minute|hour|day)s?$/, '$1-$2');
}

export function isIntervalChoice(value: string): value is IntervalChoice {
  return value === 'auto' || (SERIES_INTERVALS as readonly string[]).includes(value);
}
