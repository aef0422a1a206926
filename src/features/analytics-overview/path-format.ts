import { ACTION_KIND_LABELS, type Paths } from '../../api/queries/analytics';

export type PathStep = Paths['paths'][number]['steps'][number];

/** A path in words for screen readers and titles: `Page view /home → Interaction buy`. */
export function pathText(steps: readonly PathStep[]): string {
  return steps.map((s) => `${ACTION_KIND_LABELS[s.kind]} ${s.event_name}`).join(' → ');
}

/** The width of a path's share bar, in percent of the track (a tiny share stays visible). */
export function shareBarWidth(share: number): number {
  if (!(share > 0)) return 0;
  return Math.max(1, Math.min(100, share * 100));
}

/** Stable React keys for repeated steps (a path may hold the same action twice). */
export function stepKeys(steps: readonly PathStep[]): string[] {
  return steps.map((s, i) => `${i}:${s.kind}:${s.event_name}`);
}
