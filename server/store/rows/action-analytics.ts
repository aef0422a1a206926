import { reachedSteps } from '../../domain/funnel';
import type { ActionFilteredRange, AnalysisUnitColumn } from '../../core/store/telemetry/actions';

/**
 * What the analytics reads of both stores share, SQL aside: which column is the unit, what a
 * blank name is, how many periods a bitmask holds and which exact filters a range carries.
 */

/** Only these names ever reach the SQL text. */
export const unitColumn = (unit: AnalysisUnitColumn) =>
  unit === 'session_id' ? 'session_id' : 'distinct_id';

/** A name of only these characters is blank (not "named"). */
export const BLANK = ' \t\n\r';

/** Period bitmasks must stay exact in a JavaScript number. */
export const MAX_PERIODS = 52;

export function checkPeriods(q: { from: number; to: number }, periodMs: number) {
  if (Math.ceil((q.to - q.from) / periodMs) > MAX_PERIODS)
    throw new Error(`at most ${MAX_PERIODS} periods fit a bitmask`);
}

/** The exact filters of a range that are set, as (column, value); column names are fixed. */
export function exactFilters(q: ActionFilteredRange): [column: string, value: string][] {
  const exact: [string, string | null][] = [
    ['environment', q.environment],
    ['service_name', q.serviceName],
    ['release', q.release],
  ];
  return exact.filter((e): e is [string, string] => e[1] !== null);
}

/**
 * `reachedSteps` of one unit's step events read in any order (an aggregate sees them in scan
 * order, usually time order already): sorted by time only when they are not.
 */
export function reachedStepsInAnyOrder(
  ats: readonly number[],
  masks: readonly number[],
  windowMs: number,
): number {
  let sorted = true;
  for (let i = 1; i < ats.length && sorted; i++) sorted = (ats[i - 1] ?? 0) <= (ats[i] ?? 0);
  if (sorted) return reachedSteps(ats, masks, windowMs);
  const order = ats.map((_, i) => i).sort((a, b) => (ats[a] ?? 0) - (ats[b] ?? 0));
  return reachedSteps(
    order.map((i) => ats[i] ?? 0),
    order.map((i) => masks[i] ?? 0),
    windowMs,
  );
}
