import { reachedSteps } from '../../domain/funnel';
import type { LifecycleActivity } from '../../domain/lifecycle';
import { pathKey, type PathStep } from '../../domain/paths';
import type { RetentionActivity } from '../../domain/retention';
import type {
  ActionFilteredRange,
  ActionPropertyCount,
  AnalysisUnitColumn,
} from '../../core/store/telemetry/actions';

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

/** The json_each type SQLite gives a value parsed from JSON.stringify text. */
export function sqliteJsonType(v: unknown): string {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'number') return /^-?[0-9]+$/.test(JSON.stringify(v)) ? 'integer' : 'real';
  if (typeof v === 'string') return 'text';
  return Array.isArray(v) ? 'array' : 'object';
}

/** Retention rows: users of equal cohort and return periods counted together. */
export type RetentionDbRow = RetentionActivity & {
  events: number;
  startEvents: number;
  returnEvents: number;
};

export const retentionResult = (rows: readonly RetentionDbRow[]) => ({
  events: rows.reduce((t, r) => t + r.events, 0),
  startEvents: rows.reduce((t, r) => t + r.startEvents, 0),
  returnEvents: rows.reduce((t, r) => t + r.returnEvents, 0),
  activities: rows.map((r) => ({ cohort: r.cohort, returnMask: r.returnMask, units: r.units })),
});

/** Lifecycle rows: users of equal active periods counted together. */
export type LifecycleDbRow = LifecycleActivity & { events: number; matching: number };

export const lifecycleResult = (rows: readonly LifecycleDbRow[]) => ({
  events: rows.reduce((t, r) => t + r.events, 0),
  matchingEvents: rows.reduce((t, r) => t + r.matching, 0),
  activities: rows
    .filter((r) => r.activeMask !== 0)
    .map((r) => ({ activeMask: r.activeMask, units: r.units })),
});

/** Units counted per path (the steps `unitPath` made), and in all. */
export function pathTally() {
  const counts = new Map<string, { steps: PathStep[]; units: number }>();
  let units = 0;
  return {
    add(steps: PathStep[], n: number) {
      units += n;
      const key = pathKey(steps);
      const known = counts.get(key);
      if (known) known.units += n;
      else counts.set(key, { steps, units: n });
    },
    get units() {
      return units;
    },
    paths: () => [...counts.values()],
  };
}

/** Actions counted per top-level property key and JSON type. */
export function propertyTally() {
  const byKey = new Map<string, ActionPropertyCount>();
  return {
    count(key: string, type: string, events: number) {
      const k = `${type}\u0000${key}`;
      const known = byKey.get(k);
      if (known) known.events += events;
      else byKey.set(k, { key, type, events });
    },
    keys: () => [...byKey.values()],
  };
}
