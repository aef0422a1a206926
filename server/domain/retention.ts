import type { FunnelEvent, FunnelKind } from './funnel';

/**
 * Retention cohorts over product actions. Periods are aligned at `since` (period i covers
 * `[since + i·P, since + (i+1)·P)`, the last one cut at `until`). A unit's cohort is the period
 * of its first start event in range; it is retained in period c+k (k ≥ 1) when it has a return
 * event in that period. Offset 0 is the cohort's size.
 */
export type EventMatcher = { kind: FunnelKind; eventName: string } | null;

export type RetentionResult = {
  periodCount: number;
  cohorts: { units: number; retained: number[] }[];
  startEvents: number;
  returnEvents: number;
  units: number;
  returningUnits: number;
};

const matches = (m: EventMatcher, e: FunnelEvent) =>
  m === null || (m.kind === e.kind && m.eventName === e.name);

/** Periods `[since, until)` holds, period i starting at `since + i·periodMs`. */
export const periodCount = (since: number, until: number, periodMs: number) =>
  Math.max(0, Math.ceil((until - since) / periodMs));

/** Whether bit `p` of a period bitmask is set (masks may exceed 32 bits). */
export const hasPeriod = (mask: number, p: number) => Math.floor(mask / 2 ** p) % 2 === 1;

/**
 * Units sharing one activity: the period of their first start event (`null` without one) and
 * the periods holding their return events as a bitmask (bit p for period p).
 */
export type RetentionActivity = { cohort: number | null; returnMask: number; units: number };

/** The cohorts, from each unit's activity (see `RetentionActivity`). */
export function retentionCohorts(
  count: number,
  activities: Iterable<RetentionActivity>,
): Pick<RetentionResult, 'cohorts' | 'units' | 'returningUnits'> {
  const cohorts = Array.from({ length: count }, (_, c) => ({
    units: 0,
    retained: Array.from({ length: count - c }, () => 0),
  }));
  let units = 0;
  let returningUnits = 0;
  for (const a of activities) {
    if (a.cohort === null) continue;
    const cohort = cohorts[a.cohort];
    if (!cohort) continue;
    units += a.units;
    cohort.units += a.units;
    cohort.retained[0] = (cohort.retained[0] ?? 0) + a.units;
    let returned = false;
    for (let p = a.cohort + 1; p < count; p++) {
      if (!hasPeriod(a.returnMask, p)) continue;
      cohort.retained[p - a.cohort] = (cohort.retained[p - a.cohort] ?? 0) + a.units;
      returned = true;
    }
    if (returned) returningUnits += a.units;
  }
  return { cohorts, units, returningUnits };
}

export function computeRetention(
  opts: { since: number; until: number; periodMs: number; start: EventMatcher; ret: EventMatcher },
  events: Iterable<FunnelEvent>,
): RetentionResult {
  const count = periodCount(opts.since, opts.until, opts.periodMs);
  const period = (at: number) => Math.floor((at - opts.since) / opts.periodMs);
  const byUnit = new Map<string, RetentionActivity>();
  let startEvents = 0;
  let returnEvents = 0;
  for (const e of events) {
    if (e.at < opts.since || e.at >= opts.until || e.unit === null) continue;
    let a = byUnit.get(e.unit);
    if (!a) byUnit.set(e.unit, (a = { cohort: null, returnMask: 0, units: 1 }));
    const p = period(e.at);
    if (matches(opts.start, e)) {
      startEvents++;
      if (a.cohort === null || p < a.cohort) a.cohort = p;
    }
    if (matches(opts.ret, e)) {
      returnEvents++;
      if (!hasPeriod(a.returnMask, p)) a.returnMask += 2 ** p;
    }
  }
  return {
    periodCount: count,
    ...retentionCohorts(count, byUnit.values()),
    startEvents,
    returnEvents,
  };
}
