import type { Store } from '../core/store/store';
import { comparisonOf, windowMinutesOf, type RuleCondition } from './alert-conditions';
import { breaches, recovers, windowEndAt } from './alert-evaluator';
import { measure } from './alert-measure';

export const PREVIEW_HOURS = 24;
/** At most this many points: a shorter window is previewed on 5-minute buckets. */
export const PREVIEW_MAX_POINTS = 288;
const DEPLOYMENTS_MAX = 200;

export type Preview = {
  points: { t: number; value: number | null }[];
  threshold: number;
  op: 'above' | 'below';
  wouldFire: { start: number; end: number | null }[];
  deployments: { release: string; deployedAt: number; environment: string }[];
  intervalMinutes: number;
};

/**
 * The rule's value over the last 24 hours, one point per bucket (the rule's window, at least
 * 24 h / 288), and where the evaluator would have fired and resolved (the same hysteresis),
 * with the project's deployments in that time.
 */
export async function previewRule(
  store: Store,
  rule: RuleCondition,
  projectId: string,
  resolveThreshold: number | null,
  now: number,
  everyMinutes: number,
): Promise<Preview> {
  const minBucket = (PREVIEW_HOURS * 60) / PREVIEW_MAX_POINTS;
  const intervalMinutes = Math.max(windowMinutesOf(rule, everyMinutes), minBucket);
  const stepMs = intervalMinutes * 60_000;
  const end = windowEndAt(now, stepMs);
  const count = Math.max(1, Math.floor((PREVIEW_HOURS * 3_600_000) / stepMs));
  const buckets = Array.from({ length: count }, (_, i) => {
    const start = end - (count - i) * stepMs;
    return { start, end: start + stepMs };
  });
  const values = await measure(store, rule, projectId, buckets, now);
  const { op, threshold } = comparisonOf(rule);
  const resolveAt = resolveThreshold ?? threshold;
  const wouldFire: Preview['wouldFire'] = [];
  let open: { start: number; end: number | null } | null = null;
  buckets.forEach((b, i) => {
    const v = values[i] ?? null;
    if (v === null) return;
    if (open === null && breaches(op, v, threshold)) {
      open = { start: b.end, end: null };
      wouldFire.push(open);
    } else if (open !== null && recovers(op, v, resolveAt)) {
      open.end = b.end;
      open = null;
    }
  });
  const deployments = await store.deployments.list({
    projectIds: [projectId],
    status: null,
    since: (buckets[0]?.start ?? end) - 1,
    until: end,
    after: null,
    limit: DEPLOYMENTS_MAX,
  });
  return {
    points: buckets.map((b, i) => ({ t: b.start, value: values[i] ?? null })),
    threshold,
    op,
    wouldFire,
    deployments: deployments
      .map((d) => ({ release: d.release, deployedAt: d.finishedAt, environment: d.environment }))
      .sort((x, y) => x.deployedAt - y.deployedAt),
    intervalMinutes,
  };
}
