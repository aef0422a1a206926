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

export function computeRetention(
  opts: { since: number; until: number; periodMs: number; start: EventMatcher; ret: EventMatcher },
  events: Iterable<FunnelEvent>,
): RetentionResult {
  const periodCount = Math.ceil((opts.until - opts.since) / opts.periodMs);
  const period = (at: number) => Math.floor((at - opts.since) / opts.periodMs);
  const cohortOf = new Map<string, number>();
  const returnedIn = new Map<string, Set<number>>();
  let startEvents = 0;
  let returnEvents = 0;
  for (const e of events) {
    if (e.at < opts.since || e.at >= opts.until || e.unit === null) continue;
    if (matches(opts.start, e)) {
      startEvents++;
      const p = period(e.at);
      const known = cohortOf.get(e.unit);
      if (known === undefined || p < known) cohortOf.set(e.unit, p);
    }
    if (matches(opts.ret, e)) {
      returnEvents++;
      let set = returnedIn.get(e.unit);
      if (!set) returnedIn.set(e.unit, (set = new Set()));
      set.add(period(e.at));
    }
  }
  const cohorts = Array.from({ length: periodCount }, (_, c) => ({
    units: 0,
    retained: Array.from({ length: periodCount - c }, () => 0),
  }));
  let returningUnits = 0;
  for (const [unit, c] of cohortOf) {
    const cohort = cohorts[c];
    if (!cohort) continue;
    cohort.units++;
    cohort.retained[0] = (cohort.retained[0] ?? 0) + 1;
    let returned = false;
    for (const p of returnedIn.get(unit) ?? []) {
      if (p <= c) continue;
      cohort.retained[p - c] = (cohort.retained[p - c] ?? 0) + 1;
      returned = true;
    }
    if (returned) returningUnits++;
  }
  return { periodCount, cohorts, startEvents, returnEvents, units: cohortOf.size, returningUnits };
}
