import type { OverviewParams } from '../../api/queries/analytics';
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
