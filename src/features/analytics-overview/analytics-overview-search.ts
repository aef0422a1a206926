import { z } from 'zod/mini';
import { lenient, searchEnum, searchInt, searchUuid } from '../../lib/search-fields';
import type { ProjectScopeSearch } from '../../lib/project-scope';
import type { TimeRangeSearch } from '../../lib/time-range';

export const ACTION_KIND_VALUES = ['page_view', 'screen_view', 'interaction'] as const;
export const RETENTION_PERIODS = ['day', 'week'] as const;
export const PATH_UNITS = ['session', 'identified_user'] as const;
export const MIN_PATH_DEPTH = 1;
export const MAX_PATH_DEPTH = 5;
export const DEFAULT_PATH_DEPTH = 3;

/** An action as the URL names it (the same `{kind, name}` shape the funnels page uses). */
const actionRef = z.object({
  kind: z.enum(ACTION_KIND_VALUES),
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(256)),
});

export type ActionRef = z.infer<typeof actionRef>;
export type RetentionPeriod = (typeof RETENTION_PERIODS)[number];
export type PathUnit = (typeof PATH_UNITS)[number];

/**
 * The overview page's own search (beside the layout's `project`/`projects`/`since`/`until`).
 * Each key falls back to its default on its own, so one bad value never loses the others.
 * `analytics_project` is shared with `/analytics/funnels`: a pick carries across both pages.
 */
export const analyticsOverviewSearchSchema = z.object({
  /** The project read when the header's scope is not exactly one project. */
  analytics_project: searchUuid(),
  retention_period: searchEnum(RETENTION_PERIODS),
  retention_start: lenient(actionRef),
  retention_return: lenient(actionRef),
  paths_start: lenient(actionRef),
  paths_depth: searchInt(MIN_PATH_DEPTH, MAX_PATH_DEPTH),
  paths_unit: searchEnum(PATH_UNITS),
  lifecycle_period: searchEnum(RETENTION_PERIODS),
  /** The action that makes a user active in a lifecycle period (any action when absent). */
  lifecycle_event: lenient(actionRef),
});

export type AnalyticsOverviewSearch = z.infer<typeof analyticsOverviewSearchSchema>;
export type AnalyticsOverviewPageSearch = AnalyticsOverviewSearch &
  ProjectScopeSearch &
  TimeRangeSearch;

export const sameAction = (a: ActionRef | undefined, b: ActionRef | undefined) =>
  a?.kind === b?.kind && a?.name === b?.name;
