import type { FunnelRequest } from '../../api/queries/analytics';
import { oneProjectOf } from '../../lib/one-project';
import {
  checkRangeLength,
  rangeBounds,
  readRangeOf,
  type RangeLengthCheck,
} from '../../lib/read-range';
import {
  FUNNEL_MAX_STEPS,
  FUNNEL_MIN_STEPS,
  MAX_NAME_LENGTH,
  MAX_WINDOW_SECONDS,
  stepsOf,
  unitOf,
  windowOf,
  type CompareField,
  type FunnelsPageSearch,
} from './funnels-search';

/** A reason the funnel cannot be sent yet, tied to the control that fixes it. */
export type FunnelProblem = {
  field: 'range' | 'steps' | 'step' | 'window' | 'compare';
  /** The step (0-based) a `step` problem is about. */
  index?: number;
  message: string;
};

export type FunnelComparison = {
  field: CompareField;
  sides: { label: string; request: FunnelRequest }[];
};

export type FunnelPlan = {
  project: string | null;
  rangeCheck: RangeLengthCheck;
  /** Everything that keeps the definition from being sent, in form order. */
  problems: FunnelProblem[];
  /** Fewer than two steps: nothing is wrong, the funnel is just not defined yet. */
  needsSteps: boolean;
  /** The funnel read, when the definition is complete and every limit is met. */
  request: FunnelRequest | null;
  /** The same funnel once per compared value, when a comparison is complete. */
  comparison: FunnelComparison | null;
  /** A comparison was asked for but its two values are not both chosen. */
  comparisonIncomplete: boolean;
};

const plural = (n: number, noun: string) =>
  `${n.toLocaleString('en-US')} ${noun}${n === 1 ? '' : 's'}`;

export const COMPARE_LABELS: Record<CompareField, string> = {
  environment: 'environment',
  release: 'release',
};

/**
 * What the funnels page sends for a URL search, planned once for the loader and the page.
 * The service's limits (2 to 8 steps, names of 1 to 256 characters, a window of at most 31
 * days, a range of at most 31 days) are checked here first, so a definition the service would
 * refuse is explained beside its control and never sent.
 */
export function planFunnel(
  search: FunnelsPageSearch,
  readableIds: readonly string[],
  now: number,
): FunnelPlan {
  const project = oneProjectOf(search, search.analytics_project, readableIds);
  const bounds = rangeBounds(search, now);
  const rangeCheck = checkRangeLength(bounds.since, bounds.until, 'funnels');
  const steps = stepsOf(search);
  const problems: FunnelProblem[] = [];
  if (!rangeCheck.ok) problems.push({ field: 'range', message: rangeCheck.message });
  if (steps.length > FUNNEL_MAX_STEPS) {
    const extra = steps.length - FUNNEL_MAX_STEPS;
    problems.push({
      field: 'steps',
      message: `This funnel has ${steps.length} steps; a funnel has at most ${FUNNEL_MAX_STEPS}. Remove ${plural(extra, 'step')} to read it.`,
    });
  }
  steps.forEach((s, index) => {
    const length = s.name.trim().length;
    if (length === 0)
      problems.push({ field: 'step', index, message: `Step ${index + 1} has no action name.` });
    else if (length > MAX_NAME_LENGTH)
      problems.push({
        field: 'step',
        index,
        message: `Step ${index + 1}'s name is ${length.toLocaleString('en-US')} characters; action names are compared up to ${MAX_NAME_LENGTH}.`,
      });
  });
  const window = windowOf(search);
  if (window > MAX_WINDOW_SECONDS)
    problems.push({
      field: 'window',
      message: `The conversion window is ${plural(Math.ceil(window / 86_400), 'day')}; it can be at most 31 days.`,
    });

  const compare = search.compare;
  const a = search.compare_a?.trim();
  const b = search.compare_b?.trim();
  const comparisonIncomplete = compare !== undefined && (!a || !b);
  if (compare && a && b && a === b)
    problems.push({
      field: 'compare',
      message: `Both sides name the same ${COMPARE_LABELS[compare]}; choose two different ones.`,
    });

  const needsSteps = steps.length < FUNNEL_MIN_STEPS;
  const environment = search.environment?.trim();
  const request: FunnelRequest | null =
    project === null || needsSteps || problems.length > 0
      ? null
      : {
          project_id: project,
          ...readRangeOf(search),
          ...(environment ? { environment } : {}),
          analysis_unit: unitOf(search),
          conversion_window_seconds: window,
          steps: steps.map((s) => ({ kind: s.kind, event_name: s.name.trim() })),
        };
  const comparison: FunnelComparison | null =
    request && compare && a && b
      ? {
          field: compare,
          sides: [a, b].map((value) => ({
            label: value,
            request: { ...request, [compare]: value },
          })),
        }
      : null;
  return { project, rangeCheck, problems, needsSteps, request, comparison, comparisonIncomplete };
}
