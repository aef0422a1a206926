import type {
  AnalyticsScope,
  LifecycleRequest,
  OverviewParams,
  PathsRequest,
  RetentionRequest,
} from '../../api/queries/analytics';
import { oneProjectOf } from '../../lib/one-project';
import { checkRangeLength, rangeBounds, readRangeOf } from '../../lib/read-range';
import {
  DEFAULT_PATH_DEPTH,
  type ActionRef,
  type AnalyticsOverviewPageSearch,
} from './analytics-overview-search';

/** Top actions listed (and offered as retention and path starts). */
export const TOP_ACTIONS_LIMIT = 10;
/** Property keys listed. */
export const PROPERTIES_LIMIT = 50;
/** Paths listed. */
export const PATHS_LIMIT = 10;

export type AnalyticsReads =
  | { kind: 'pick-project' }
  | { kind: 'range-too-long'; project: string; message: string; days: number }
  | {
      kind: 'read';
      project: string;
      overview: OverviewParams;
      properties: AnalyticsScope & { limit: number };
      retention: RetentionRequest;
      paths: PathsRequest;
      lifecycle: LifecycleRequest;
    };

const matcherOf = (action: ActionRef | undefined) =>
  action ? { kind: action.kind, event_name: action.name } : undefined;

/**
 * Every read the page makes for a search, planned once for the loader and the page alike.
 * Nothing is planned until one project is known, nor for a range the service would refuse
 * (over 31 days at `now`): that is explained instead of sent.
 */
export function analyticsReads(
  search: AnalyticsOverviewPageSearch,
  readableIds: readonly string[],
  now: number,
): AnalyticsReads {
  const project = oneProjectOf(search, search.analytics_project, readableIds);
  if (project === null) return { kind: 'pick-project' };
  const bounds = rangeBounds(search, now);
  const check = checkRangeLength(bounds.since, bounds.until, 'analytics');
  if (!check.ok)
    return { kind: 'range-too-long', project, message: check.message, days: check.days };

  const scope: AnalyticsScope = { project_id: project, ...readRangeOf(search) };
  const retention: RetentionRequest = { ...scope, period: search.retention_period ?? 'day' };
  const retentionStart = matcherOf(search.retention_start);
  const retentionReturn = matcherOf(search.retention_return);
  if (retentionStart) retention.start_event = retentionStart;
  if (retentionReturn) retention.return_event = retentionReturn;
  const paths: PathsRequest = {
    ...scope,
    analysis_unit: search.paths_unit ?? 'session',
    depth: search.paths_depth ?? DEFAULT_PATH_DEPTH,
    limit: PATHS_LIMIT,
  };
  const pathsStart = matcherOf(search.paths_start);
  if (pathsStart) paths.start_event = pathsStart;
  const lifecycle: LifecycleRequest = { ...scope, period: search.lifecycle_period ?? 'day' };
  const lifecycleEvent = matcherOf(search.lifecycle_event);
  if (lifecycleEvent) lifecycle.event = lifecycleEvent;
  return {
    kind: 'read',
    project,
    overview: { ...scope, top_limit: TOP_ACTIONS_LIMIT },
    properties: { ...scope, limit: PROPERTIES_LIMIT },
    retention,
    paths,
    lifecycle,
  };
}
