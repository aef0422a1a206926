import type { Retention } from '../../api/queries/analytics';
import { formatRate, plural } from './analytics-text';
import type { RetentionPeriod } from './analytics-overview-search';

/** Shade steps of a retention cell; 0 is no return, 5 half the cohort or more. */
export type ShadeLevel = 0 | 1 | 2 | 3 | 4 | 5;

const SHADE_FLOORS: readonly [number, ShadeLevel][] = [
  [0.5, 5],
  [0.3, 4],
  [0.15, 3],
  [0.05, 2],
  [Number.MIN_VALUE, 1],
];

/** The shade of a return rate: steps, so equal-looking cells are equal within a band. */
export function shadeLevel(rate: number): ShadeLevel {
  for (const [floor, level] of SHADE_FLOORS) if (rate >= floor) return level;
  return 0;
}

export type RetentionCell =
  | { kind: 'size'; text: string; label: string }
  | { kind: 'rate'; level: ShadeLevel; text: string; label: string }
  /** The cohort is empty: no rate to give. */
  | { kind: 'empty'; text: string; label: string }
  /** The offset is after the range's end for this cohort. */
  | { kind: 'future' };

export type RetentionRow = {
  start: string;
  startLabel: string;
  units: number;
  cells: RetentionCell[];
};

const periodWord = (period: RetentionPeriod) => (period === 'day' ? 'Day' : 'Week');

/** A column's heading: `Day 0`, `Week 3`. */
export const offsetLabel = (period: RetentionPeriod, offset: number) =>
  `${periodWord(period)} ${offset}`;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number) => String(n).padStart(2, '0');

/**
 * A cohort's start in UTC: `16 Nov`, with the time when periods are not aligned at midnight
 * (a relative range starts at the moment it was read): `16 Nov 21:20`.
 */
export function cohortStartLabel(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const date = `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()] ?? ''}`;
  return d.getUTCHours() === 0 && d.getUTCMinutes() === 0
    ? date
    : `${date} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}

/**
 * The grid of an answer: a row per cohort, a column per offset up to the longest cohort.
 * Offset 0 is the cohort's size; later cells carry the rate as text (the shade only repeats it).
 */
export function retentionGrid(
  retention: Retention,
  period: RetentionPeriod,
): { columns: number; rows: RetentionRow[] } {
  const columns = Math.max(0, ...retention.cohorts.map((c) => c.retained.length));
  const noun = period === 'day' ? 'day' : 'week';
  const rows = retention.cohorts.map((cohort): RetentionRow => {
    const startLabel = cohortStartLabel(cohort.start);
    const cells = Array.from({ length: columns }, (_, offset): RetentionCell => {
      if (offset >= cohort.retained.length) return { kind: 'future' };
      if (offset === 0) {
        return {
          kind: 'size',
          text: cohort.units.toLocaleString('en-US'),
          label: `Cohort of ${startLabel}: ${plural(cohort.units, 'user', 'users')}`,
        };
      }
      if (cohort.units === 0) {
        return { kind: 'empty', text: '–', label: `Cohort of ${startLabel} is empty` };
      }
      const retained = cohort.retained[offset] ?? 0;
      const rate = cohort.rates[offset] ?? 0;
      return {
        kind: 'rate',
        level: shadeLevel(rate),
        text: formatRate(rate),
        label: `${formatRate(rate)}: ${retained.toLocaleString('en-US')} of ${plural(cohort.units, 'user', 'users')} returned in ${noun} ${offset}`,
      };
    });
    return { start: cohort.start, startLabel, units: cohort.units, cells };
  });
  return { columns, rows };
}
