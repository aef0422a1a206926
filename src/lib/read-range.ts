import { parseTimeRange, type TimeRangeSearch } from './time-range';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** The longest range a series, volume or analytics read covers (spec, "Limits"). */
export const MAX_RANGE_DAYS = 31;
export const MAX_RANGE_MS = MAX_RANGE_DAYS * DAY_MS;

/**
 * The range a chart or analytics read sends, as the URL holds it: a relative `since` stays
 * compact (`24h`) so the query key does not move with the clock; the service resolves it.
 */
export type ReadRange = { since: string; until?: string };

export function readRangeOf(search: TimeRangeSearch): ReadRange {
  const range = parseTimeRange(search);
  if (range.kind === 'relative') return { since: `${range.amount}${range.unit}` };
  return range.until === undefined
    ? { since: range.since }
    : { since: range.since, until: range.until };
}

/** The range as epoch milliseconds at `now` (an open range ends now). */
export function rangeBounds(
  search: TimeRangeSearch,
  now: number,
): { since: number; until: number } {
  const range = parseTimeRange(search);
  if (range.kind === 'relative') {
    return { since: now - range.amount * (range.unit === 'h' ? HOUR_MS : DAY_MS), until: now };
  }
  return {
    since: Date.parse(range.since),
    until: range.until === undefined ? now : Date.parse(range.until),
  };
}

export type RangeLengthCheck =
  { ok: true; days: number } | { ok: false; days: number; message: string };

/**
 * Whether the range is one the service reads (at most 31 days), with the reason in words a
 * person can act on when it is not. `what` names the reads refused ("charts", "funnels").
 */
export function checkRangeLength(sinceMs: number, untilMs: number, what: string): RangeLengthCheck {
  const days = Math.ceil((untilMs - sinceMs) / DAY_MS);
  if (untilMs - sinceMs <= MAX_RANGE_MS) return { ok: true, days };
  return {
    ok: false,
    days,
    message: `This range covers ${days.toLocaleString('en-US')} days; ${what} read at most ${MAX_RANGE_DAYS} days. Choose a shorter time range in the header.`,
  };
}
