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

/** Positions (0-based) of the steps an event matches, kind and name exactly. */
function stepIndex(steps: FunnelStepDef[]): Map<string, number[]> {
  const index = new Map<string, number[]>();
  steps.forEach((s, i) => {
    const key = stepKey(s.kind, s.eventName);
    const list = index.get(key);
    if (list) list.push(i);
    else index.set(key, [i]);
  });
  return index;
}

export function computeFunnel(
  steps: FunnelStepDef[],
  windowMs: number,
  events: Iterable<FunnelEvent>,
): FunnelResult {
  const index = stepIndex(steps);
  const byUnit = new Map<string, FunnelEvent[]>();
  let selected = 0;
  let usable = 0;
  for (const e of events) {
    if (!index.has(stepKey(e.kind, e.name))) continue;
    selected++;
    if (e.unit === null) continue;
    usable++;
    const list = byUnit.get(e.unit);
    if (list) list.push(e);
    else byUnit.set(e.unit, [e]);
  }
  const stepUnits = steps.map(() => 0);
  for (const list of byUnit.values()) {
    list.sort((a, b) => a.at - b.at);
    const reached = reachedSteps(list, index, steps.length, windowMs);
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

/** How many steps (0 to n) one unit's events, oldest first, complete in order. */
function reachedSteps(
  events: FunnelEvent[],
  index: Map<string, number[]>,
  stepCount: number,
  windowMs: number,
): number {
  let reached = 0;
  let entryAt = 0;
  let lastAt = 0;
  for (const e of events) {
    if (reached === stepCount) break;
    const positions = index.get(stepKey(e.kind, e.name));
    if (!positions?.includes(reached)) continue;
    if (reached === 0) {
      entryAt = e.at;
      lastAt = e.at;
      reached = 1;
      continue;
    }
    if (e.at - entryAt > windowMs) break;
    if (e.at <= lastAt) continue;
    lastAt = e.at;
    reached++;
  }
  return reached;
}
