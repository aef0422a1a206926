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
    const from = list.findIndex(
      (e) => opts.start === null || (e.kind === opts.start.kind && e.name === opts.start.eventName),
    );
    if (from < 0) continue;
    units++;
    const steps = list
      .slice(from, from + 1 + opts.depth)
      .map((e) => ({ kind: e.kind, name: e.name }));
    const key = JSON.stringify(steps);
    const known = counts.get(key);
    if (known) known.units++;
    else counts.set(key, { steps, units: 1 });
  }
  const paths = [...counts.values()].sort(
    (a, b) => b.units - a.units || compareSteps(a.steps, b.steps),
  );
  return { units, paths };
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
