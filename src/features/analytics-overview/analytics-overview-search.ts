import { z } from 'zod';
import { isUuid, type ProjectScopeSearch } from '../../lib/project-scope';
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
  name: z.string().trim().min(1).max(256),
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
  analytics_project: z.string().refine(isUuid).optional().catch(undefined),
  retention_period: z.enum(RETENTION_PERIODS).optional().catch(undefined),
  retention_start: actionRef.optional().catch(undefined),
  retention_return: actionRef.optional().catch(undefined),
  paths_start: actionRef.optional().catch(undefined),
  paths_depth: z.number().int().min(MIN_PATH_DEPTH).max(MAX_PATH_DEPTH).optional().catch(undefined),
  paths_unit: z.enum(PATH_UNITS).optional().catch(undefined),
  lifecycle_period: z.enum(RETENTION_PERIODS).optional().catch(undefined),
  /** The action that makes a user active in a lifecycle period (any action when absent). */
  lifecycle_event: actionRef.optional().catch(undefined),
});

export type AnalyticsOverviewSearch = z.infer<typeof analyticsOverviewSearchSchema>;
export type AnalyticsOverviewPageSearch = AnalyticsOverviewSearch &
  ProjectScopeSearch &
  TimeRangeSearch;

export const sameAction = (a: ActionRef | undefined, b: ActionRef | undefined) =>
  a?.kind === b?.kind && a?.name === b?.name;
