import { ACTION_KINDS, type FunnelKind, type OverviewParams } from '../../api/queries/analytics';
import { readRangeOf } from '../../lib/read-range';
import type { FunnelPlan } from './funnel-plan';
import type { FunnelsPageSearch } from './funnels-search';

/** The step picker offers this many action names: the service's largest `top_limit`. */
export const ACTION_CHOICE_LIMIT = 50;

/**
 * The overview read whose top actions the step picker offers: the actions seen in the
 * project and range (and environment), most frequent first. None without a project or for a
 * range the service would refuse.
 */
export function actionChoicesParams(
  search: FunnelsPageSearch,
  plan: Pick<FunnelPlan, 'project' | 'rangeCheck'>,
): OverviewParams | null {
  if (plan.project === null || !plan.rangeCheck.ok) return null;
  const environment = search.environment?.trim();
  return {
    project_id: plan.project,
    ...readRangeOf(search),
    ...(environment ? { environment } : {}),
    top_limit: ACTION_CHOICE_LIMIT,
  };
}

type SeenAction = { name: string; kind: FunnelKind };

/** How well a seen name matches what was typed: exact, then start, then anywhere; -1 none. */
function matchRank(name: string, typed: string): number {
  const n = name.toLowerCase();
  if (n === typed) return 0;
  if (n.startsWith(typed)) return 1;
  if (n.split(/\s+/).some((word) => word.startsWith(typed))) return 2;
  return n.includes(typed) ? 3 : -1;
}

/**
 * The picker's choices for what was typed, in the order Enter should take them: the actions
 * seen in range that match (case aside: exact names, then names starting with it, then names
 * with a word starting with it, then anywhere; most frequent first within each), then, last,
 * the typed name for each kind no seen action has exactly that name in (it matches nothing
 * seen in the range, so a funnel of it reads zero unless the name is about to appear).
 */
export function actionChoices<T extends SeenAction>(
  seen: readonly T[],
  typed: string,
): { matches: T[]; unseenKinds: FunnelKind[] } {
  const text = typed.trim();
  if (text === '') return { matches: [...seen], unseenKinds: [] };
  const lower = text.toLowerCase();
  const matches = seen
    .map((action, order) => ({ action, order, rank: matchRank(action.name, lower) }))
    .filter((m) => m.rank >= 0)
    // `seen` comes most frequent first, so the original order breaks ties.
    .sort((a, b) => a.rank - b.rank || a.order - b.order)
    .map((m) => m.action);
  const unseenKinds = ACTION_KINDS.filter(
    (kind) => !seen.some((a) => a.kind === kind && a.name === text),
  );
  return { matches, unseenKinds };
}
