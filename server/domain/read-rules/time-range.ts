import { invalid } from './read-rule-error';

const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|([+-])(\d{2}):(\d{2}))$/;
/** A relative `since`: a positive number of hours or days, `24h`, `7d` (no leading zero). */
export const RELATIVE_SINCE = /^([1-9]\d{0,5})([hd])$/;
const HOUR_MS = 3_600_000;

/**
 * Epoch ms of an RFC3339 timestamp (UTC `Z` or an offset), or null. Checks each field itself:
 * `Date.parse` accepts impossible dates such as February 30.
 */
export function parseRfc3339(value: string): number | null {
  const m = RFC3339.exec(value);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  if (m[9] !== undefined && (Number(m[10]) > 23 || Number(m[11]) > 59)) return null;
  const ms = Date.parse(value.toUpperCase());
  return Number.isFinite(ms) ? ms : null;
}

/** A time range in epoch ms: `since` inclusive, `until` exclusive; null when not sent. */
export type TimeRange = { since: number | null; until: number | null };

/**
 * Spec "Common read rules" 3. `since` is `<n>h`, `<n>d` (relative to `now`, the request time)
 * or RFC3339; `until` is RFC3339 only and must be later than `since` (millisecond precision).
 */
export function parseTimeRange(q: { since?: string; until?: string }, now: number): TimeRange {
  let since: number | null = null;
  if (q.since !== undefined) {
    const rel = RELATIVE_SINCE.exec(q.since);
    if (rel) {
      since = now - Number(rel[1]) * (rel[2] === 'd' ? 24 * HOUR_MS : HOUR_MS);
    } else {
      since = parseRfc3339(q.since);
      if (since === null)
        throw invalid('since must be a positive number of hours or days (24h, 7d) or RFC3339');
    }
  }
  let until: number | null = null;
  if (q.until !== undefined) {
    until = parseRfc3339(q.until);
    if (until === null) throw invalid('until must be an RFC3339 timestamp');
  }
  if (since !== null && until !== null && until <= since)
    throw invalid('until must be later than since');
  return { since, until };
}
