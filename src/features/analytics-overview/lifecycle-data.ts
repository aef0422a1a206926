import type { Lifecycle } from '../../api/queries/analytics';
import { cohortStartLabel } from './retention-grid';

export const LIFECYCLE_STATES = ['new', 'returning', 'resurrecting', 'dormant'] as const;
export type LifecycleState = (typeof LIFECYCLE_STATES)[number];

export const LIFECYCLE_LABELS: Record<LifecycleState, string> = {
  new: 'New',
  returning: 'Returning',
  resurrecting: 'Resurrecting',
  dormant: 'Dormant',
};

export const LIFECYCLE_MEANINGS: Record<LifecycleState, string> = {
  new: 'first active period in range',
  returning: 'also active the period before',
  resurrecting: 'back after at least one period away',
  dormant: 'active the period before, not in this one',
};

export type LifecycleRow = {
  start: string;
  label: string;
  active: number;
  new: number;
  returning: number;
  resurrecting: number;
  /** Negative: dormant users are drawn below zero. */
  dormant: number;
};

/**
 * One stacked bar per period: the three active states above zero, dormant below it (the
 * service sends dormant as a positive count). `extent` is the larger side, so the axis is
 * symmetric enough to compare the two.
 */
export function lifecycleChartData(lifecycle: Lifecycle): {
  rows: LifecycleRow[];
  extent: number;
} {
  const rows = lifecycle.periods.map((p) => ({
    start: p.start,
    label: cohortStartLabel(p.start),
    active: p.active,
    new: p.new,
    returning: p.returning,
    resurrecting: p.resurrecting,
    dormant: p.dormant === 0 ? 0 : -p.dormant,
  }));
  const extent = Math.max(
    0,
    ...lifecycle.periods.map((p) => Math.max(p.new + p.returning + p.resurrecting, p.dormant)),
  );
  return { rows, extent };
}

/**
 * A symmetric axis around zero with round ticks (at most three each side), so users above and
 * below the line read on the same scale: 308 gives ±400 in steps of 200.
 */
export function symmetricTicks(extent: number): number[] {
  if (!(extent > 0)) return [-1, 0, 1];
  let step = 1;
  for (let magnitude = 1; ; magnitude *= 10) {
    const fit = [1, 2, 5].map((m) => m * magnitude).find((s) => Math.ceil(extent / s) <= 3);
    if (fit !== undefined) {
      step = fit;
      break;
    }
  }
  const n = Math.ceil(extent / step);
  return Array.from({ length: 2 * n + 1 }, (_, i) => (i - n) * step);
}
