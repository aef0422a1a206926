/**
 * Reading a value by the hours it occurs in (`log_value_hours`): which time ranges, in which
 * batches. Pure, so the list's exactness rests on what these return.
 */

export const HOUR_MS = 3_600_000;

/** An hour (epoch ms at its start) in which a project's logs hold a value, and how many. */
export type ValueHour = { hour: number; logs: number };

/** Hours (epoch ms at their starts) as time ranges, adjacent hours joined into one. */
export function hourRanges(hours: readonly number[]): { start: number; end: number }[] {
  const ranges: { start: number; end: number }[] = [];
  for (const h of [...new Set(hours)].sort((a, b) => a - b)) {
    const last = ranges[ranges.length - 1];
    if (last && last.end === h) last.end = h + HOUR_MS;
    else ranges.push({ start: h, end: h + HOUR_MS });
  }
  return ranges;
}

/**
 * The batches a rare value's hours are read in, newest first: each holds, by the hours'
 * counts, at least `wanted(done)` logs (what the page still lacks after the batches before),
 * and ends at an hour boundary of every project (an hour of one project is in the same batch
 * as that hour of the others), so every log of a later batch is older than any of an earlier.
 */
export function* valueHourBatches(
  hours: ReadonlyMap<string, readonly ValueHour[]>,
  wanted: () => number,
): Generator<Map<string, number[]>> {
  const queue = [...hours]
    .flatMap(([projectId, hs]) => hs.map((h) => ({ projectId, ...h })))
    .sort((a, b) => b.hour - a.hour);
  let next = 0;
  while (next < queue.length) {
    const batch = new Map<string, number[]>();
    const need = wanted();
    const first = next;
    let held = 0;
    let last = Number.NaN;
    for (; next < queue.length; next++) {
      const h = queue[next];
      // A batch holds one hour at least, so each makes progress.
      if (!h || (next > first && held >= need && h.hour !== last)) break;
      batch.set(h.projectId, [...(batch.get(h.projectId) ?? []), h.hour]);
      held += h.logs;
      last = h.hour;
    }
    yield batch;
  }
}
