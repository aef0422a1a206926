import { z } from 'zod';
import { ACTION_KINDS, type AnalysisUnit, type FunnelKind } from '../../api/queries/analytics';
import { isUuid, type ProjectScopeSearch } from '../../lib/project-scope';
import type { TimeRangeSearch } from '../../lib/time-range';

/** The service's funnel limits (spec "Funnel body"; README "Funnel"). */
export const FUNNEL_MIN_STEPS = 2;
export const FUNNEL_MAX_STEPS = 8;
export const MAX_NAME_LENGTH = 256;
export const MAX_WINDOW_SECONDS = 31 * 86_400;
export const DEFAULT_WINDOW_SECONDS = 86_400;

/** One step as the URL holds it: the action kind and its exact name. */
export type FunnelStepSearch = { kind: FunnelKind; name: string };

export const COMPARE_FIELDS = ['environment', 'release'] as const;
export type CompareField = (typeof COMPARE_FIELDS)[number];

const step = z.object({
  kind: z.enum(ACTION_KINDS as [FunnelKind, ...FunnelKind[]]),
  // Longer than the service takes, so an over-long name is explained, not silently dropped.
  name: z.string().max(4 * MAX_NAME_LENGTH),
});

/**
 * The funnel definition lives in the URL, so a funnel can be shared and reloaded: the steps
 * in order, the unit, the conversion window in seconds, an environment filter, and the
 * comparison of two environments or releases. More steps than the service takes are kept
 * (and explained in the form); values the page cannot read at all fall back to the defaults.
 */
export const funnelsSearchSchema = z.object({
  steps: z.array(step).max(32).optional().catch(undefined),
  unit: z.enum(['session', 'identified_user']).optional().catch(undefined),
  window: z.number().int().positive().optional().catch(undefined),
  environment: z.string().min(1).max(1024).optional().catch(undefined),
  compare: z.enum(COMPARE_FIELDS).optional().catch(undefined),
  compare_a: z.string().min(1).max(1024).optional().catch(undefined),
  compare_b: z.string().min(1).max(1024).optional().catch(undefined),
  /** The project when the layout's scope is not exactly one (shared with `/analytics`). */
  analytics_project: z.string().refine(isUuid).optional().catch(undefined),
});

export type FunnelsSearch = z.infer<typeof funnelsSearchSchema>;
export type FunnelsPageSearch = FunnelsSearch & ProjectScopeSearch & TimeRangeSearch;

export const unitOf = (search: FunnelsSearch): AnalysisUnit => search.unit ?? 'session';
export const windowOf = (search: FunnelsSearch): number => search.window ?? DEFAULT_WINDOW_SECONDS;
export const stepsOf = (search: FunnelsSearch): FunnelStepSearch[] => search.steps ?? [];
