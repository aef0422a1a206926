import type { FunnelEvent } from './funnel';
import { hasPeriod, periodCount, type EventMatcher } from './retention';

/**
 * Lifecycle of units over periods aligned at `since` (period i covers `[since + i·P,
 * since + (i+1)·P)`, the last one cut at `until`). A unit is active in a period when it has a
 * matching action in it. Per period, each active unit is exactly one of `new` (its first active
 * period in range), `returning` (also active in the previous period) or `resurrecting` (not in
 * the previous period but in an earlier one); `dormant` counts units active in the previous
 * period and not in this one. The range is never looked beyond, so the first period holds only
 * new units and no dormant ones.
 */
export type LifecyclePeriod = {
  active: number;
  new: number;
  returning: number;
  resurrecting: number;
  dormant: number;
};

export type LifecycleResult = {
  periods: LifecyclePeriod[];
  /** Matching actions in range with a unit id. */
  matchingEvents: number;
  /** Distinct units active in range (each is new exactly once, so also the sum of `new`). */
  activeUnits: number;
  /** Distinct units with each state in at least one period. */
  returningUnits: number;
  resurrectingUnits: number;
  dormantUnits: number;
};

const matches = (m: EventMatcher, e: FunnelEvent) =>
  m === null || (m.kind === e.kind && m.eventName === e.name);

/** Units active in the same periods: a bitmask with bit p for period p (never 0). */
export type LifecycleActivity = { activeMask: number; units: number };

export function computeLifecycle(
  opts: { since: number; until: number; periodMs: number; event: EventMatcher },
  events: Iterable<FunnelEvent>,
): LifecycleResult {
  const activeIn = new Map<string, number>();
  let matchingEvents = 0;
  for (const e of events) {
    if (e.at < opts.since || e.at >= opts.until || e.unit === null) continue;
    if (!matches(opts.event, e)) continue;
    matchingEvents++;
    const p = Math.floor((e.at - opts.since) / opts.periodMs);
    const mask = activeIn.get(e.unit) ?? 0;
    if (!hasPeriod(mask, p)) activeIn.set(e.unit, mask + 2 ** p);
  }
  const activities = [...activeIn.values()].map((activeMask) => ({ activeMask, units: 1 }));
  return lifecycleFromActivity(
    periodCount(opts.since, opts.until, opts.periodMs),
    activities,
    matchingEvents,
  );
}

/** The lifecycle per period, from the periods each unit is active in. */
export function lifecycleFromActivity(
  count: number,
  activities: Iterable<LifecycleActivity>,
  matchingEvents: number,
): LifecycleResult {
  const periods: LifecyclePeriod[] = Array.from({ length: count }, () => ({
    active: 0,
    new: 0,
    returning: 0,
    resurrecting: 0,
    dormant: 0,
  }));
  let activeUnits = 0;
  let returningUnits = 0;
  let resurrectingUnits = 0;
  let dormantUnits = 0;
  for (const { activeMask, units } of activities) {
    let first = 0;
    while (first < count && !hasPeriod(activeMask, first)) first++;
    if (first === count) continue;
    activeUnits += units;
    let returned = false;
    let resurrected = false;
    let wentDormant = false;
    for (let p = first; p < count; p++) {
      const row = periods[p];
      if (!row) continue;
      const now = hasPeriod(activeMask, p);
      const before = p > first && hasPeriod(activeMask, p - 1);
      if (now) {
        row.active += units;
        if (p === first) row.new += units;
        else if (before) {
          row.returning += units;
          returned = true;
        } else {
          row.resurrecting += units;
          resurrected = true;
        }
      } else if (before) {
        row.dormant += units;
        wentDormant = true;
      }
    }
    if (returned) returningUnits += units;
    if (resurrected) resurrectingUnits += units;
    if (wentDormant) dormantUnits += units;
  }
  return {
    periods,
    matchingEvents,
    activeUnits,
    returningUnits,
    resurrectingUnits,
    dormantUnits,
  };
}
