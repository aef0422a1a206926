import { utcTimeTicks } from '../../lib/time-ticks';

/** A chart row: the bucket start (epoch ms) and one value per drawn key (`null` = no data). */
export type ChartRow = { x: number } & Record<string, number | null>;

/** How many line colours the palette holds (`--line-0` … `--line-9` in `ui/series-palette.module.css`). */
export const LINE_COLORS = 10;

/** One drawn line: its row key, its words, and its colour and dash (colour is never alone). */
export type LineKey = {
  dataKey: string;
  label: string;
  color: number;
  /** Solid for the first ten lines, dashed for the next ten. */
  dashed: boolean;
};

export type TimeAxis = { domain: [number, number]; ticks: number[]; span: number };

/** The time axis of a bucketed answer: its `since` to its `until`, with round UTC ticks. */
export function timeAxis(since: string, until: string, buckets: readonly string[]): TimeAxis {
  const from = Date.parse(since);
  const to = Date.parse(until);
  const first = Date.parse(buckets[0] ?? since);
  const start = Number.isFinite(from) ? from : first;
  const end = Number.isFinite(to) && to > start ? to : start + 1;
  return { domain: [start, end], ticks: utcTimeTicks(start, end), span: end - start };
}
