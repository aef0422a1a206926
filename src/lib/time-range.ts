/**
 * Time ranges as the URL carries them (`since`, `until`) and as reads send them.
 *
 * `since` is either compact (`24h`, `7d`: relative to now) or an RFC3339 timestamp; `until` is
 * RFC3339 only and must be later than `since`. A relative range is turned into one RFC3339
 * `since` once per multi-page read, so every page covers the same window.
 */

export type RelativeUnit = 'h' | 'd';

export type TimeRange =
  | { kind: 'relative'; amount: number; unit: RelativeUnit }
  | { kind: 'absolute'; since: string; until: string | undefined };

export type TimeRangeSearch = { since?: string | undefined; until?: string | undefined };

const HOUR_MS = 3_600_000;
const UNIT_MS: Record<RelativeUnit, number> = { h: HOUR_MS, d: 24 * HOUR_MS };

const COMPACT = /^([1-9]\d{0,5})([hd])$/;
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

export const DEFAULT_TIME_RANGE: TimeRange = { kind: 'relative', amount: 24, unit: 'h' };

export const TIME_RANGE_PRESETS: readonly { compact: string; range: TimeRange }[] = [
  { compact: '1h', range: { kind: 'relative', amount: 1, unit: 'h' } },
  { compact: '24h', range: { kind: 'relative', amount: 24, unit: 'h' } },
  { compact: '7d', range: { kind: 'relative', amount: 7, unit: 'd' } },
  { compact: '14d', range: { kind: 'relative', amount: 14, unit: 'd' } },
  { compact: '30d', range: { kind: 'relative', amount: 30, unit: 'd' } },
];

export function isCompactDuration(value: string): boolean {
  return COMPACT.test(value);
}

export function isRfc3339(value: string): boolean {
  return RFC3339.test(value) && Number.isFinite(Date.parse(value));
}

/** Whether a value may stand in the URL's `since`. */
export function isSinceValue(value: string): boolean {
  return isCompactDuration(value) || isRfc3339(value);
}

/**
 * Reads the URL's values. Anything that does not make a valid range (a malformed value, an
 * `until` without an absolute `since`, an `until` not later than `since`) gives the default.
 */
export function parseTimeRange(search: TimeRangeSearch): TimeRange {
  const { since, until } = search;
  if (since === undefined) return DEFAULT_TIME_RANGE;
  const compact = COMPACT.exec(since);
  if (compact) {
    if (until !== undefined) return DEFAULT_TIME_RANGE;
    return { kind: 'relative', amount: Number(compact[1]), unit: compact[2] as RelativeUnit };
  }
  if (!isRfc3339(since)) return DEFAULT_TIME_RANGE;
  const sinceIso = new Date(since).toISOString();
  if (until === undefined) return { kind: 'absolute', since: sinceIso, until: undefined };
  if (!isRfc3339(until) || Date.parse(until) <= Date.parse(since)) return DEFAULT_TIME_RANGE;
  return { kind: 'absolute', since: sinceIso, until: new Date(until).toISOString() };
}

/** The URL's values for a range. The default range has no values (a clean URL). */
export function serializeTimeRange(range: TimeRange): { since?: string; until?: string } {
  if (range.kind === 'relative') {
    if (isSameRange(range, DEFAULT_TIME_RANGE)) return {};
    return { since: `${range.amount}${range.unit}` };
  }
  return range.until === undefined
    ? { since: range.since }
    : { since: range.since, until: range.until };
}

export function isSameRange(a: TimeRange, b: TimeRange): boolean {
  if (a.kind === 'relative' && b.kind === 'relative') {
    return a.amount * UNIT_MS[a.unit] === b.amount * UNIT_MS[b.unit];
  }
  if (a.kind === 'absolute' && b.kind === 'absolute') {
    return a.since === b.since && a.until === b.until;
  }
  return false;
}

/** The RFC3339 `since` of a range at `now` (millisecond precision, UTC). */
export function toRfc3339Since(range: TimeRange, now: Date | number): string {
  if (range.kind === 'absolute') return range.since;
  const at = typeof now === 'number' ? now : now.getTime();
  return new Date(at - range.amount * UNIT_MS[range.unit]).toISOString();
}

/**
 * The query values for one read of several pages: call it once when the read starts and
 * send the result with every page.
 */
export function resolveTimeRange(
  range: TimeRange,
  now: Date | number,
): { since: string; until?: string } {
  const since = toRfc3339Since(range, now);
  return range.kind === 'absolute' && range.until !== undefined
    ? { since, until: range.until }
    : { since };
}

export function relativeLabel(amount: number, unit: RelativeUnit): string {
  const noun = unit === 'h' ? 'hour' : 'day';
  return amount === 1 ? `Last ${noun}` : `Last ${amount} ${noun}s`;
}

const pad = (n: number) => String(n).padStart(2, '0');
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `3 May 14:05` in UTC. */
function shortUtc(iso: string): string {
  const d = new Date(iso);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()] ?? ''} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}

/** What a picker shows for a range: `Last 24 hours`, `3 May 14:05 – 4 May 09:00 UTC`. */
export function timeRangeLabel(range: TimeRange): string {
  if (range.kind === 'relative') return relativeLabel(range.amount, range.unit);
  const until = range.until === undefined ? 'now' : shortUtc(range.until);
  return `${shortUtc(range.since)} – ${until} UTC`;
}

/** RFC3339 -> the value of an `<input type="datetime-local">` showing UTC (`YYYY-MM-DDTHH:mm`). */
export function toDateTimeLocalUtc(iso: string): string {
  const d = new Date(iso);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/;

/** A datetime-local value read as UTC -> RFC3339, or null when it is not a valid time. */
export function fromDateTimeLocalUtc(value: string): string | null {
  const m = LOCAL.exec(value);
  if (!m) return null;
  const [, y, mo, d, h, mi, s = '0', ms = '0'] = m;
  const at = Date.UTC(
    Number(y),
    Number(mo) - 1,
    Number(d),
    Number(h),
    Number(mi),
    Number(s),
    Number(ms.padEnd(3, '0')),
  );
  const date = new Date(at);
  if (
    !Number.isFinite(at) ||
    date.getUTCDate() !== Number(d) ||
    date.getUTCMonth() !== Number(mo) - 1
  ) {
    return null;
  }
  return date.toISOString();
}

export type CustomRangeResult = { ok: true; range: TimeRange } | { ok: false; message: string };

/** Checks the custom range a person typed (UTC); `until` may be empty (up to now). */
export function customTimeRange(sinceLocal: string, untilLocal: string): CustomRangeResult {
  const since = fromDateTimeLocalUtc(sinceLocal);
  if (since === null) return { ok: false, message: 'Enter a start time.' };
  if (untilLocal.trim() === '')
    return { ok: true, range: { kind: 'absolute', since, until: undefined } };
  const until = fromDateTimeLocalUtc(untilLocal);
  if (until === null) return { ok: false, message: 'Enter a valid end time, or leave it empty.' };
  if (Date.parse(until) <= Date.parse(since)) {
    return { ok: false, message: 'The end must be later than the start.' };
  }
  return { ok: true, range: { kind: 'absolute', since, until } };
}
