import type { FunnelEvent } from './funnel';
import type { EventMatcher } from './retention';

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

export function computeLifecycle(
  opts: { since: number; until: number; periodMs: number; event: EventMatcher },
  events: Iterable<FunnelEvent>,
): LifecycleResult {
  const periodCount = Math.max(0, Math.ceil((opts.until - opts.since) / opts.periodMs));
  const activeIn = new Map<string, Set<number>>();
  let matchingEvents = 0;
  for (const e of events) {
    if (e.at < opts.since || e.at >= opts.until || e.unit === null) continue;
    if (!matches(opts.event, e)) continue;
    matchingEvents++;
    let set = activeIn.get(e.unit);
    if (!set) activeIn.set(e.unit, (set = new Set()));
    set.add(Math.floor((e.at - opts.since) / opts.periodMs));
  }
  const periods: LifecyclePeriod[] = Array.from({ length: periodCount }, () => ({
    active: 0,
    new: 0,
    returning: 0,
    resurrecting: 0,
    dormant: 0,
  }));
  let returningUnits = 0;
  let resurrectingUnits = 0;
  let dormantUnits = 0;
  for (const set of activeIn.values()) {
    const first = Math.min(...set);
    let returned = false;
    let resurrected = false;
    let wentDormant = false;
    for (let p = first; p < periodCount; p++) {
      const row = periods[p];
      if (!row) continue;
      const now = set.has(p);
      const before = p > first && set.has(p - 1);
      if (now) {
        row.active++;
        if (p === first) row.new++;
        else if (before) {
          row.returning++;
          returned = true;
        } else {
          row.resurrecting++;
          resurrected = true;
        }
      } else if (before) {
        row.dormant++;
        wentDormant = true;
      }
    }
    if (returned) returningUnits++;
    if (resurrected) resurrectingUnits++;
    if (wentDormant) dormantUnits++;
  }
  return {
    periods,
    matchingEvents,
    activeUnits: activeIn.size,
    returningUnits,
    resurrectingUnits,
    dormantUnits,
  };
}
