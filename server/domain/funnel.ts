/**
 * Ordered funnels over product actions (spec "Funnel response"). Pure: the route reads the
 * project's step events in range once and hands them here.
 *
 * A unit (a session or an identified user) enters at its first step-1 event in range. Each
 * later step k is the earliest step-k event that occurred strictly later than the event that
 * completed step k-1 and at most `windowMs` after the entry (inclusive). An event completes at
 * most one step. Events outside the range never count. Greedy earliest matching is optimal
 * for a fixed entry: any later choice leaves fewer events for the following steps.
 */

export const FUNNEL_KINDS = ['page_view', 'screen_view', 'interaction'] as const;
export type FunnelKind = (typeof FUNNEL_KINDS)[number];
export type FunnelStepDef = { kind: FunnelKind; eventName: string };

/** One action as the funnel sees it: its unit id is `null` when the action has none. */
export type FunnelEvent = { unit: string | null; kind: string; name: string; at: number };

export type FunnelResult = {
  enteredUnits: number;
  completedUnits: number;
  /** Units reaching each step, in step order (the first is `enteredUnits`). */
  stepUnits: number[];
  selectedStepEvents: number;
  usableSelectedStepEvents: number;
};

/** A fraction from 0 to 1; 0 when the denominator is 0 (documented in `limitations`). */
export const rate = (part: number, whole: number): number => (whole > 0 ? part / whole : 0);

const stepKey = (kind: string, name: string) => `${kind}\u0000${name}`;

/**
 * Each distinct (kind, name) of the steps with the bitmask of the positions it matches (bit i
 * for step i): a step repeated later in the funnel matches both positions.
 */
export function stepMasks(steps: FunnelStepDef[]): { kind: string; name: string; mask: number }[] {
  const byKey = new Map<string, { kind: string; name: string; mask: number }>();
  steps.forEach((s, i) => {
    const key = stepKey(s.kind, s.eventName);
    const known = byKey.get(key);
    if (known) known.mask |= 1 << i;
    else byKey.set(key, { kind: s.kind, name: s.eventName, mask: 1 << i });
  });
  return [...byKey.values()];
}

export function computeFunnel(
  steps: FunnelStepDef[],
  windowMs: number,
  events: Iterable<FunnelEvent>,
): FunnelResult {
  const masks = new Map(stepMasks(steps).map((m) => [stepKey(m.kind, m.name), m.mask]));
  const byUnit = new Map<string, { at: number; mask: number }[]>();
  let selected = 0;
  let usable = 0;
  for (const e of events) {
    const mask = masks.get(stepKey(e.kind, e.name));
    if (mask === undefined) continue;
    selected++;
    if (e.unit === null) continue;
    usable++;
    const list = byUnit.get(e.unit);
    if (list) list.push({ at: e.at, mask });
    else byUnit.set(e.unit, [{ at: e.at, mask }]);
  }
  const stepUnits = steps.map(() => 0);
  for (const list of byUnit.values()) {
    list.sort((a, b) => a.at - b.at);
    const reached = reachedSteps(
      list.map((e) => e.at),
      list.map((e) => e.mask),
      windowMs,
    );
    for (let i = 0; i < reached; i++) stepUnits[i] = (stepUnits[i] ?? 0) + 1;
  }
  const enteredUnits = stepUnits[0] ?? 0;
  return {
    enteredUnits,
    completedUnits: stepUnits[steps.length - 1] ?? 0,
    stepUnits,
    selectedStepEvents: selected,
    usableSelectedStepEvents: usable,
  };
}

/**
 * How many steps one unit completes in order, from its step events oldest first: `ats[j]` the
 * time and `masks[j]` the step positions (see `stepMasks`) of event j. Ties in time may come in
 * any order: an event at the time of the previous step never completes the next one.
 */
export function reachedSteps(
  ats: readonly number[],
  masks: readonly number[],
  windowMs: number,
): number {
  let reached = 0;
  let entryAt = 0;
  let lastAt = 0;
  for (let j = 0; j < ats.length; j++) {
    const at = ats[j] ?? 0;
    if (((masks[j] ?? 0) & (1 << reached)) === 0) continue;
    if (reached === 0) {
      entryAt = at;
      lastAt = at;
      reached = 1;
      continue;
    }
    if (at - entryAt > windowMs) break;
    if (at <= lastAt) continue;
    lastAt = at;
    reached++;
  }
  return reached;
}
