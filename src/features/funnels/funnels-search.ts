import { z } from 'zod/mini';
import { lenient, searchEnum, searchUuid } from '../../lib/search-fields';
import { ACTION_KINDS, type AnalysisUnit, type FunnelKind } from '../../api/queries/analytics';
import type { ProjectScopeSearch } from '../../lib/project-scope';
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
  name: z.string().check(z.maxLength(4 * MAX_NAME_LENGTH)),
});

// Longer than the service takes, so an over-long value is explained, not silently dropped.
const comparedValue = lenient(z.string().check(z.minLength(1), z.maxLength(1024)));

/**
 * The funnel definition lives in the URL, so a funnel can be shared and reloaded: the steps
 * in order, the unit, the conversion window in seconds, an environment filter, and the
 * comparison of two environments or releases. More steps than the service takes are kept
 * (and explained in the form); values the page cannot read at all fall back to the defaults.
 */
export const funnelsSearchSchema = z.object({
  steps: lenient(z.array(step).check(z.maxLength(32))),
  unit: searchEnum(['session', 'identified_user']),
  window: lenient(z.int().check(z.positive())),
  environment: comparedValue,
  compare: searchEnum(COMPARE_FIELDS),
  compare_a: comparedValue,
  compare_b: comparedValue,
  /** The project when the layout's scope is not exactly one (shared with `/analytics`). */
  analytics_project: searchUuid(),
});

export type FunnelsSearch = z.infer<typeof funnelsSearchSchema>;
export type FunnelsPageSearch = FunnelsSearch & ProjectScopeSearch & TimeRangeSearch;

export const unitOf = (search: FunnelsSearch): AnalysisUnit => search.unit ?? 'session';
export const windowOf = (search: FunnelsSearch): number => search.window ?? DEFAULT_WINDOW_SECONDS;
export const stepsOf = (search: FunnelsSearch): FunnelStepSearch[] => search.steps ?? [];
