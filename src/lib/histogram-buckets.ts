const HOUR_MS = 3_600_000;
/** About this many bars per sparkline, whatever the range. */
export const SPARKLINE_BARS = 24;
/** The service's largest `buckets`. */
const MAX_BUCKETS = 100;

/**
 * The `buckets` to ask the histogram route for so each bar is a whole number of hours near
 * range / 24. The service widens the range to whole hours (a 24 h range that starts mid-hour
 * spans 25) and makes each bucket `ceil(hours / buckets)` hours, so asking for 24 would give
 * 2-hour bars; asking for `ceil(hours / barHours)` keeps one-hour bars for a day, seven-hour
 * bars for a week.
 */
export function histogramBuckets(sinceMs: number, untilMs: number): number {
  const barHours = Math.max(1, Math.ceil((untilMs - sinceMs) / HOUR_MS / SPARKLINE_BARS));
  const hours = Math.ceil(untilMs / HOUR_MS) - Math.floor(sinceMs / HOUR_MS);
  return Math.min(MAX_BUCKETS, Math.max(1, Math.ceil(hours / barHours)));
}
