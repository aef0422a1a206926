/** Round UTC ticks for a chart's time axis, and how each tick is written. */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const STEPS = [
  MINUTE,
  5 * MINUTE,
  15 * MINUTE,
  30 * MINUTE,
  HOUR,
  3 * HOUR,
  6 * HOUR,
  12 * HOUR,
  DAY,
  2 * DAY,
  7 * DAY,
  14 * DAY,
];

/**
 * Ticks over `[from, to]`, at most `maxTicks`: the smallest step of the list that fits, each
 * tick a multiple of it from the epoch (so day ticks fall on UTC midnight).
 */
export function utcTimeTicks(from: number, to: number, maxTicks = 7): number[] {
  if (!(to > from)) return [from];
  const span = to - from;
  const step = STEPS.find((s) => span / s <= maxTicks - 1) ?? Math.ceil(span / (maxTicks - 1));
  const ticks: number[] = [];
  for (let t = Math.ceil(from / step) * step; t <= to; t += step) ticks.push(t);
  return ticks;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number) => String(n).padStart(2, '0');

/**
 * A tick in UTC: `14:05` within a day or two, `3 May` on longer axes; a midnight tick is
 * always the date, so the day change is visible.
 */
export function formatUtcTick(at: number, spanMs: number): string {
  const d = new Date(at);
  const date = `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()] ?? ''}`;
  if (spanMs > 2 * DAY) return date;
  if (d.getUTCHours() === 0 && d.getUTCMinutes() === 0) return date;
  return `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}
