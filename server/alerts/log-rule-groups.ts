import type { Logger } from '../core/logger';
import type { LogCountFilters } from '../core/store/telemetry/logs';
import type { MeasureStore } from './alert-measure';
import { logFiltersOf, type LogCondition } from './alert-conditions';

/** Filter sets per grouped read: a bigger group is split, so one read stays a bounded query. */
export const GROUP_MAX = 200;

/** A log rule's pending windows: the same window length ending at each of `ends`. */
export type LogRulePlan = {
  ruleId: string;
  projectId: string;
  condition: LogCondition;
  windowMs: number;
  ends: number[];
};

/** The key of the rules read together: one project, one window length, the same windows. */
const groupKey = (p: LogRulePlan) =>
  `${p.projectId} ${String(p.windowMs)} ${p.ends.map(String).join(',')}`;

/**
 * The values of log rules counted in groups: rules of a project with the same windows are one
 * `countEach` read (the range once, each rule's filters counted on it), where one read per rule
 * and window was mostly the engine's cost per query. A group whose read fails is left out: its
 * rules are then read one at a time, so one bad rule keeps its failure to itself. By rule id,
 * one value per window end, in `ends` order.
 */
export async function measureLogGroups(
  store: MeasureStore,
  plans: LogRulePlan[],
  log: Pick<Logger, 'error'>,
): Promise<Map<string, number[]>> {
  const groups = new Map<string, LogRulePlan[]>();
  for (const p of plans) {
    const key = groupKey(p);
    const group = groups.get(key);
    if (group) group.push(p);
    else groups.set(key, [p]);
  }
  const values = new Map<string, number[]>();
  for (const group of groups.values()) {
    for (let at = 0; at < group.length; at += GROUP_MAX) {
      const part = group.slice(at, at + GROUP_MAX);
      // One rule alone gains nothing from a group: the evaluator reads it as before.
      if (part.length < 2) continue;
      const first = part[0] as LogRulePlan;
      try {
        const filters: LogCountFilters[] = part.map((p) => ({
          ...logFiltersOf(p.condition.query),
          traceId: null,
          status: 'active',
        }));
        const counts = await store.logs.countEach({
          projectIds: [first.projectId],
          buckets: first.ends.map((end) => ({ start: end - first.windowMs, end })),
          filters,
        });
        part.forEach((p, i) => {
          const c = counts[i];
          if (c !== undefined) values.set(p.ruleId, c);
        });
      } catch (err) {
        log.error(
          `alerts: ${String(part.length)} log rules of project ${first.projectId} not read together, reading them one at a time (${String(err)})`,
        );
      }
    }
  }
  return values;
}
