import { z, type OpenAPIHono } from '@hono/zod-openapi';
import {
  ANALYSIS_UNITS,
  UNIT_COLUMN,
  analyticsRangeFields,
  trimmedText,
  analyticsPostRoute,
} from './analytics-body';
import { FUNNEL_KINDS, rate } from '../../domain/funnel';
import { ANALYTICS_FILTER_MAX } from '../../domain/read-rules/analytics-range';
import { MAX_RANGE_DAYS } from '../../domain/read-rules/series-window';
import type { AppEnv } from '../../http/app-env';
import type { Deps } from '../../core/deps';
import { orNull } from '../../http/openapi-shared';
import { registerAnalyticsPost } from './analytics-post';
import type { ActionFunnelCounts } from '../../core/store/telemetry/actions';

export const FUNNEL_MIN_STEPS = 2;
export const FUNNEL_MAX_STEPS = 8;
/** The longest conversion window: the longest range a funnel can read. */
export const FUNNEL_MAX_WINDOW_SECONDS = MAX_RANGE_DAYS * 86_400;
export const FUNNEL_PATH = '/api/telemetry/analytics/funnel';

const FunnelStepInput = z
  .object({
    kind: z.enum(FUNNEL_KINDS).openapi({ description: 'The action kind the step matches.' }),
    event_name: trimmedText('event_name').openapi({
      description: `The exact action name (1 to ${ANALYTICS_FILTER_MAX} characters; surrounding spaces are trimmed).`,
    }),
  })
  .strict()
  .openapi('FunnelStepInput');

const FunnelRequest = z
  .object({
    ...analyticsRangeFields,
    environment: z
      .string()
      .optional()
      .openapi({
        description: `Exact environment (1 to ${ANALYTICS_FILTER_MAX} characters after trimming); every environment when omitted.`,
      }),
    service_name: z
      .string()
      .optional()
      .openapi({
        description: `Ours (a shared analytics filter): exact service name, 1 to ${ANALYTICS_FILTER_MAX} characters after trimming.`,
      }),
    release: z
      .string()
      .optional()
      .openapi({
        description: `Ours (a shared analytics filter): exact release, 1 to ${ANALYTICS_FILTER_MAX} characters after trimming; compare releases by running the funnel once per release.`,
      }),
    analysis_unit: z.enum(ANALYSIS_UNITS).openapi({
      description:
        '`session`: actions grouped by `session_id` (actions without one are excluded). `identified_user`: grouped by `distinct_id`.',
    }),
    conversion_window_seconds: z
      .number()
      .int('must be an integer')
      .min(1, 'must be at least 1')
      .max(FUNNEL_MAX_WINDOW_SECONDS, `must be at most ${FUNNEL_MAX_WINDOW_SECONDS} (31 days)`)
      .openapi({
        description: `1 to ${FUNNEL_MAX_WINDOW_SECONDS} (31 days): every later step must happen at most this long after the unit's entry.`,
      }),
    steps: z
      .array(FunnelStepInput)
      .min(FUNNEL_MIN_STEPS, `must have ${FUNNEL_MIN_STEPS} to ${FUNNEL_MAX_STEPS} steps`)
      .max(FUNNEL_MAX_STEPS, `must have ${FUNNEL_MIN_STEPS} to ${FUNNEL_MAX_STEPS} steps`),
  })
  .strict()
  .openapi('FunnelRequest');

const fraction = (description: string) =>
  z
    .number()
    .min(0)
    .max(1)
    .openapi({
      description: `${description} A fraction from 0 to 1; 0 when the denominator is 0.`,
    });

const FunnelQueryEcho = z
  .object({
    project_id: z.string().openapi({ format: 'uuid' }),
    since: z.string().openapi({ format: 'date-time', description: 'Resolved, inclusive.' }),
    until: z.string().openapi({ format: 'date-time', description: 'Resolved, exclusive.' }),
    environment: orNull(z.string()),
    service_name: orNull(z.string()),
    release: orNull(z.string()),
    analysis_unit: z.enum(ANALYSIS_UNITS),
    conversion_window_seconds: z.number().int(),
    steps: z.array(z.object({ kind: z.enum(FUNNEL_KINDS), event_name: z.string() })),
  })
  .openapi('FunnelQuery');

const stepBase = {
  position: z.number().int().openapi({ description: '1 for the first step.' }),
  kind: z.enum(FUNNEL_KINDS),
  event_name: z.string(),
  units: z.number().int().openapi({ description: 'Units that completed this step in order.' }),
  conversion_from_first: fraction('`units` over the units of step 1.'),
};

const FunnelStepResult = z
  .union([
    z
      .object({
        ...stepBase,
        drop_off_to_next_units: z
          .number()
          .int()
          .openapi({ description: 'Units of this step that did not complete the next one.' }),
        drop_off_to_next_rate: fraction('`drop_off_to_next_units` over `units`.'),
      })
      .openapi({ description: 'Every step but the last.' }),
    z
      .object({
        ...stepBase,
        conversion_from_previous: fraction('`units` over the units of the previous step.'),
      })
      .openapi({ description: 'The last step.' }),
  ])
  .openapi('FunnelStep');

const FunnelResponse = z
  .object({
    schema_version: z.literal(1),
    query: FunnelQueryEcho,
    purpose: z.string().openapi({ description: 'What the numbers measure, in words.' }),
    summary: z.object({
      candidate_units: z.number().int().openapi({
        description: 'Distinct units with any action in range (and environment).',
      }),
      entered_units: z.number().int().openapi({ description: 'Units with a step-1 event.' }),
      completed_units: z.number().int().openapi({ description: 'Units completing every step.' }),
      entry_rate: fraction('`entered_units` over `candidate_units`.'),
      overall_conversion_rate: fraction('`completed_units` over `entered_units`.'),
    }),
    coverage: z.object({
      classified_events: z.number().int().openapi({
        description: 'Actions in range with a known kind (page_view, screen_view, interaction).',
      }),
      named_events: z
        .number()
        .int()
        .openapi({ description: 'Actions in range with a non-blank name.' }),
      unnamed_events: z
        .number()
        .int()
        .openapi({ description: 'Actions in range with a blank name.' }),
      unit_identified_events: z.number().int().openapi({
        description: 'Actions in range carrying the unit id (`session_id` or `distinct_id`).',
      }),
      selected_step_events: z
        .number()
        .int()
        .openapi({ description: 'Actions in range matching a step (kind and name).' }),
      usable_selected_step_events: z
        .number()
        .int()
        .openapi({ description: 'Selected step events carrying the unit id.' }),
      excluded_selected_step_events: z
        .number()
        .int()
        .openapi({ description: 'Selected step events without the unit id: never counted.' }),
      event_name_rate: fraction('`named_events` over all actions in range.'),
      selected_unit_coverage_rate: fraction(
        '`usable_selected_step_events` over `selected_step_events`.',
      ),
      limitations: z.array(z.string()).openapi({ description: 'What the numbers leave out.' }),
    }),
    steps: z.array(FunnelStepResult),
    next_action: z
      .object({
        code: z.literal('compare_funnel_contexts'),
        target: z.string().openapi({ description: 'The path to run the comparison against.' }),
        reason: z.string(),
      })
      .openapi('FunnelNextAction'),
  })
  .openapi('Funnel');

const postFunnel = analyticsPostRoute({
  path: FUNNEL_PATH,
  summary: 'Ordered conversion through 2 to 8 action steps',
  description:
    'Each unit (session or identified user) enters at its first step-1 action in range; each later step is its earliest matching action strictly after the previous step’s, at most `conversion_window_seconds` after the entry. ' +
    'Only actions in `[since, until)` (and `environment`) count. No raw identity is returned.',
  body: FunnelRequest,
  response: FunnelResponse,
  responseDescription: 'The funnel.',
});

const NO_COUNTS: ActionFunnelCounts = {
  events: 0,
  classified: 0,
  named: 0,
  unitIdentified: 0,
  units: 0,
  stepUnits: [],
  selected: 0,
  usable: 0,
};

export function registerFunnelRoute(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  registerAnalyticsPost(
    app,
    deps,
    postFunnel,
    async (body, { readable, environment, query, echo }) => {
      const steps = body.steps.map((s) => ({ kind: s.kind, eventName: s.event_name.trim() }));
      const unit = UNIT_COLUMN[body.analysis_unit];
      const windowMs = body.conversion_window_seconds * 1000;
      const counts = readable
        ? await deps.store.actions.funnel({ ...query, unit, steps, windowMs })
        : NO_COUNTS;
      const result = {
        enteredUnits: counts.stepUnits[0] ?? 0,
        completedUnits: counts.stepUnits[steps.length - 1] ?? 0,
        stepUnits: counts.stepUnits,
        selectedStepEvents: counts.selected,
        usableSelectedStepEvents: counts.usable,
      };
      const excluded = result.selectedStepEvents - result.usableSelectedStepEvents;
      const first = result.enteredUnits;

      const unitWord = body.analysis_unit === 'session' ? 'session' : 'identified user';
      const limitations = [
        'Rates are fractions from 0 to 1; a rate whose denominator is 0 is reported as 0.',
        body.analysis_unit === 'session'
          ? 'Units are sessions (session_id); actions without a session_id are excluded.'
          : 'Units are distinct_id values: an anonymous id counts as its own user, and one person under two ids counts twice.',
        'Only actions in [since, until) count: a unit entering near until may complete its steps after it and be counted as dropped off.',
        'Actions are matched by exact kind and name; other spellings are not counted.',
      ];
      if (excluded > 0)
        limitations.push(
          `${excluded} of ${result.selectedStepEvents} selected step events had no ${unit} and were excluded.`,
        );
      if (environment === null)
        limitations.push('Every environment is counted together; set environment to read one.');

      const stepsOut = steps.map((s, i) => {
        const units = result.stepUnits[i] ?? 0;
        const base = {
          position: i + 1,
          kind: s.kind,
          event_name: s.eventName,
          units,
          conversion_from_first: rate(units, first),
        };
        if (i === steps.length - 1)
          return {
            ...base,
            conversion_from_previous: rate(units, result.stepUnits[i - 1] ?? 0),
          };
        const dropped = units - (result.stepUnits[i + 1] ?? 0);
        return {
          ...base,
          drop_off_to_next_units: dropped,
          drop_off_to_next_rate: rate(dropped, units),
        };
      });

      return {
        schema_version: 1 as const,
        query: {
          ...echo,
          analysis_unit: body.analysis_unit,
          conversion_window_seconds: body.conversion_window_seconds,
          steps: steps.map((s) => ({ kind: s.kind, event_name: s.eventName })),
        },
        purpose: `Share of ${unitWord}s that complete ${steps.length} steps in order (${steps
          .map((s) => s.eventName)
          .join(' → ')}) within ${body.conversion_window_seconds} s of their first step.`,
        summary: {
          candidate_units: counts.units,
          entered_units: first,
          completed_units: result.completedUnits,
          entry_rate: rate(first, counts.units),
          overall_conversion_rate: rate(result.completedUnits, first),
        },
        coverage: {
          classified_events: counts.classified,
          named_events: counts.named,
          unnamed_events: counts.events - counts.named,
          unit_identified_events: counts.unitIdentified,
          selected_step_events: result.selectedStepEvents,
          usable_selected_step_events: result.usableSelectedStepEvents,
          excluded_selected_step_events: excluded,
          event_name_rate: rate(counts.named, counts.events),
          selected_unit_coverage_rate: rate(
            result.usableSelectedStepEvents,
            result.selectedStepEvents,
          ),
          limitations,
        },
        steps: stepsOut,
        next_action: {
          code: 'compare_funnel_contexts' as const,
          target: FUNNEL_PATH,
          reason:
            environment === null
              ? 'Run the same funnel once per environment (or per release) and compare the steps side by side.'
              : 'Run the same funnel with another environment (or release) and compare the steps side by side.',
        },
      };
    },
  );
}
