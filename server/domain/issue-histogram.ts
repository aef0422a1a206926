import { invalid } from './read-rules/read-rule-error';

export const HOUR_MS = 3_600_000;
export const DEFAULT_HISTOGRAM_BUCKETS = 24;
export const MAX_HISTOGRAM_BUCKETS = 100;

/** Whole UTC hours since the epoch, as `issue_occurrence_hours.hour` stores them. */
export const hourOf = (epochMs: number): number => Math.floor(epochMs / HOUR_MS);

/**
 * The buckets of an occurrence histogram: the range widened to whole UTC hours (`since`
 * floored, `until` ceiled), each bucket `bucketHours` long. The last bucket ends at `toHour`
 * and may be shorter than the others.
 */
export type HistogramWindow = {
  /** First hour covered (inclusive). */
  fromHour: number;
  /** Hour after the last one covered (exclusive). */
  toHour: number;
  bucketHours: number;
  bucketCount: number;
};

/** `buckets` as sent: an integer from 1 to 100; absent gives 24. */
export function parseBuckets(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_HISTOGRAM_BUCKETS;
  const n = /^\d{1,3}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > MAX_HISTOGRAM_BUCKETS)
    throw invalid(`buckets must be an integer from 1 to ${MAX_HISTOGRAM_BUCKETS}`);
  return n;
}

/** The window for `since` (inclusive) to `until` (exclusive), `until` later than `since`. */
export function histogramWindow(since: number, until: number, buckets: number): HistogramWindow {
  const fromHour = hourOf(since);
  const toHour = Math.max(Math.ceil(until / HOUR_MS), fromHour + 1);
  const hours = toHour - fromHour;
  const bucketHours = Math.ceil(hours / buckets);
  return { fromHour, toHour, bucketHours, bucketCount: Math.ceil(hours / bucketHours) };
}

/** Per-issue counts, one per bucket, from hourly rows inside the window. */
export function bucketCounts(
  rows: readonly { issueId: string; hour: number; occurrences: number }[],
  window: HistogramWindow,
): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const r of rows) {
    if (r.hour < window.fromHour || r.hour >= window.toHour) continue;
    let counts = out.get(r.issueId);
    if (!counts) {
      counts = Array.from({ length: window.bucketCount }, () => 0);
      out.set(r.issueId, counts);
    }
    const bucket = Math.floor((r.hour - window.fromHour) / window.bucketHours);
    counts[bucket] = (counts[bucket] ?? 0) + r.occurrences;
  }
  return out;
}
