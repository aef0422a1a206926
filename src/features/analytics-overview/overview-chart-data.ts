import type { AnalyticsOverview } from '../../api/queries/analytics';
import { utcTimeTicks } from '../../lib/time-ticks';

export type BucketRow = { x: number; events: number };

const INTERVAL_WORDS: Record<AnalyticsOverview['interval'], string> = {
  '1m': '1-minute',
  '5m': '5-minute',
  '15m': '15-minute',
  '1h': '1-hour',
  '6h': '6-hour',
  '1d': '1-day',
};

/** `1-hour bucket`: what one bar counts. */
export const bucketWords = (interval: AnalyticsOverview['interval']) =>
  `${INTERVAL_WORDS[interval]} bucket`;

/**
 * The bars of the actions chart: one row per bucket (an empty bucket is a 0 bar, the service's
 * own count), with time ticks over the buckets' span and the time axis's domain (half a bucket
 * beyond the first and last bar, so both are whole).
 */
export function actionsChartData(overview: AnalyticsOverview): {
  rows: BucketRow[];
  ticks: number[];
  span: number;
  peak: number;
  domain: [number, number];
} {
  const rows = overview.buckets.map((start, i) => ({
    x: Date.parse(start),
    events: overview.totals.events_per_bucket[i] ?? 0,
  }));
  const first = rows[0]?.x ?? 0;
  const last = rows[rows.length - 1]?.x ?? first;
  return {
    rows,
    ticks: rows.length > 1 ? utcTimeTicks(first, last, 8) : rows.map((r) => r.x),
    span: last - first + overview.bucket_seconds * 1000,
    peak: Math.max(0, ...rows.map((r) => r.events)),
    domain: [first - overview.bucket_seconds * 500, last + overview.bucket_seconds * 500],
  };
}
