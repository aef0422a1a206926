/**
 * Usage history windows (spec: Usage history, Limits): calendar buckets in UTC, oldest
 * first, the last one holding `now` (the current, unfinished period).
 */
export const HISTORY_INTERVALS = ['daily', 'weekly', 'monthly', 'yearly'] as const;
export type HistoryInterval = (typeof HISTORY_INTERVALS)[number];

export const DEFAULT_HISTORY_INTERVAL: HistoryInterval = 'monthly';

export const HISTORY_BUCKET_COUNTS: Record<HistoryInterval, number> = {
  daily: 30,
  weekly: 12,
  monthly: 12,
  yearly: 5,
};

const DAY_MS = 86_400_000;

/** Start of the calendar period holding `ms`: 00:00 UTC, Monday, the 1st, or 1 January. */
export function periodStart(interval: HistoryInterval, ms: number): number {
  const d = new Date(ms);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  const day = Date.UTC(y, m, d.getUTCDate());
  switch (interval) {
    case 'daily':
      return day;
    case 'weekly':
      // getUTCDay: Sunday 0 … Saturday 6; Monday starts the week.
      return day - ((d.getUTCDay() + 6) % 7) * DAY_MS;
    case 'monthly':
      return Date.UTC(y, m, 1);
    case 'yearly':
      return Date.UTC(y, 0, 1);
  }
}

/** The start of the period `n` periods after the one starting at `start` (n may be negative). */
export function shiftPeriod(interval: HistoryInterval, start: number, n: number): number {
  const d = new Date(start);
  switch (interval) {
    case 'daily':
      return start + n * DAY_MS;
    case 'weekly':
      return start + n * 7 * DAY_MS;
    case 'monthly':
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, 1);
    case 'yearly':
      return Date.UTC(d.getUTCFullYear() + n, 0, 1);
  }
}

export type HistoryBucket = { start: number; end: number };

/** The interval's buckets ending with the period holding `now`; each end is exclusive. */
export function historyBuckets(interval: HistoryInterval, now: number): HistoryBucket[] {
  const count = HISTORY_BUCKET_COUNTS[interval];
  const current = periodStart(interval, now);
  const buckets: HistoryBucket[] = [];
  for (let i = count - 1; i >= 0; i--) {
    const start = shiftPeriod(interval, current, -i);
    buckets.push({ start, end: shiftPeriod(interval, start, 1) });
  }
  return buckets;
}

/** Index of the bucket holding `ms`, or -1 outside the window (buckets are sorted, contiguous). */
export function bucketIndexOf(buckets: readonly HistoryBucket[], ms: number): number {
  let lo = 0;
  let hi = buckets.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const b = buckets[mid];
    if (!b) break;
    if (ms < b.start) hi = mid - 1;
    else if (ms >= b.end) lo = mid + 1;
    else return mid;
  }
  return -1;
}
