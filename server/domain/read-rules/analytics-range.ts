import { invalid } from './read-rule-error';
import { MAX_RANGE_DAYS, MAX_RANGE_MS } from './series-window';
import { parseTimeRange } from './time-range';

/** Longest analytics filter value, after trimming (spec "Limits"). */
export const ANALYTICS_FILTER_MAX = 256;

/**
 * Spec "Shared analytics rules": `since` required (`<n>h`, `<n>d` or RFC3339), `until`
 * RFC3339 defaulting to the request time, later than `since`, at most 31 days after it.
 * Returns epoch ms, `since` inclusive and `until` exclusive.
 */
export function parseAnalyticsRange(
  q: { since?: string | undefined; until?: string | undefined },
  now: number,
): { since: number; until: number } {
  if (q.since === undefined) throw invalid('since is required');
  const range = parseTimeRange({ since: q.since, until: q.until }, now);
  const since = range.since ?? now;
  const until = range.until ?? now;
  if (until <= since) throw invalid('until must be later than since');
  if (until - since > MAX_RANGE_MS)
    throw invalid(`the range from since to until must be at most ${MAX_RANGE_DAYS} days`);
  return { since, until };
}

/** An exact analytics filter: absent, or 1 to 256 characters after trimming (trimmed). */
export function analyticsFilter(key: string, value: string | undefined): string | null {
  if (value === undefined) return null;
  const trimmed = value.trim();
  if (trimmed.length < 1 || trimmed.length > ANALYTICS_FILTER_MAX)
    throw invalid(`${key} must be 1 to ${ANALYTICS_FILTER_MAX} characters after trimming`);
  return trimmed;
}
