import type { FunnelEvent } from './funnel';
import type { EventMatcher } from './retention';

/**
 * Paths: for each unit, the `depth` actions that follow its first start event in range (its
 * first action when there is no start event), in time order. Units with the same sequence of
 * (kind, name) share a path; a unit whose actions end sooner has a shorter path.
 */
export type PathStep = { kind: string; name: string };
export type PathsResult = {
  units: number;
  paths: { steps: PathStep[]; units: number }[];
};

export function computePaths(
  opts: { start: EventMatcher; depth: number },
  events: Iterable<FunnelEvent>,
): PathsResult {
  const byUnit = new Map<string, FunnelEvent[]>();
  for (const e of events) {
    if (e.unit === null) continue;
    const list = byUnit.get(e.unit);
    if (list) list.push(e);
    else byUnit.set(e.unit, [e]);
  }
  const counts = new Map<string, { steps: PathStep[]; units: number }>();
  let units = 0;
  for (const list of byUnit.values()) {
    list.sort((a, b) => a.at - b.at);
    const steps = unitPath(list, opts.start, opts.depth);
    if (steps === null) continue;
    units++;
    const key = pathKey(steps);
    const known = counts.get(key);
    if (known) known.units++;
    else counts.set(key, { steps, units: 1 });
  }
  return { units, paths: rankPaths(counts.values()) };
}

/**
 * One unit's path from its actions in time order: its first start action (its first action
 * when `start` is null) and the `depth` after it; null when it has no start action.
 */
export function unitPath(
  actions: readonly PathStep[],
  start: EventMatcher,
  depth: number,
): PathStep[] | null {
  const from = actions.findIndex(
    (e) => start === null || (e.kind === start.kind && e.name === start.eventName),
  );
  if (from < 0) return null;
  return actions.slice(from, from + 1 + depth).map((e) => ({ kind: e.kind, name: e.name }));
}

/** The same key for the same sequence of steps. */
export const pathKey = (steps: readonly PathStep[]) => JSON.stringify(steps);

/** Most units first, then step by step by name and kind (a path before its continuations). */
export function rankPaths(
  paths: Iterable<{ steps: PathStep[]; units: number }>,
): { steps: PathStep[]; units: number }[] {
  return [...paths].sort((a, b) => b.units - a.units || compareSteps(a.steps, b.steps));
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Step by step by name, then kind; a path before its own continuations. */
function compareSteps(a: PathStep[], b: PathStep[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (!x || !y) break;
    const c = cmp(x.name, y.name) || cmp(x.kind, y.kind);
    if (c !== 0) return c;
  }
  return a.length - b.length;
}
