import { createRoute, z } from '@hono/zod-openapi';
import { bearerSecurity, errorResponses, jsonContent } from '../../http/openapi-shared';
import { FUNNEL_KINDS } from '../../domain/funnel';
import { ANALYTICS_FILTER_MAX } from '../../domain/read-rules/analytics-range';
import { MAX_RANGE_DAYS } from '../../domain/read-rules/series-window';
import type { EventMatcher } from '../../domain/retention';
import type { AnalysisUnitColumn } from '../../core/store/telemetry/actions';

export const UUID_RE =
  /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** What a funnel or path counts: sessions (`session_id`) or users (`distinct_id`). */
export const ANALYSIS_UNITS = ['session', 'identified_user'] as const;
export type AnalysisUnit = (typeof ANALYSIS_UNITS)[number];
export const UNIT_COLUMN: Record<AnalysisUnit, AnalysisUnitColumn> = {
  session: 'session_id',
  identified_user: 'distinct_id',
};

/** The one project and one range every analytics body starts with (shared analytics rules). */
export const analyticsRangeFields = {
  project_id: z
    .string()
    .regex(UUID_RE, 'must be a UUID')
    .openapi({ format: 'uuid', description: 'One project.' }),
  since: z.string().openapi({
    description: `\`<n>h\`, \`<n>d\` or RFC3339, inclusive. The range to \`until\` is at most ${MAX_RANGE_DAYS} days.`,
  }),
  until: z.string().optional().openapi({
    description: 'RFC3339, exclusive, later than `since`; default the request time.',
  }),
};

/** The resolved range and filters a paths or retention answer echoes in `query`. */
export const analyticsQueryEcho = {
  project_id: z.string().openapi({ format: 'uuid' }),
  since: z.string().openapi({ format: 'date-time' }),
  until: z.string().openapi({ format: 'date-time' }),
  service_name: z.string().nullable(),
  release: z.string().nullable(),
  environment: z.string().nullable(),
};

/** Retention and lifecycle periods, aligned at `since` (period i is `[since + i·P, …)`). */
export const ANALYTICS_PERIODS = { day: 86_400_000, week: 7 * 86_400_000 } as const;
export type AnalyticsPeriod = keyof typeof ANALYTICS_PERIODS;

export const trimmedText = (what: string) =>
  z.string().refine((s) => s.trim().length >= 1 && s.trim().length <= ANALYTICS_FILTER_MAX, {
    message: `${what} must be 1 to ${ANALYTICS_FILTER_MAX} characters after trimming`,
  });

/** One action kind and exact name (retention, paths, lifecycle and segment events). */
export const EventMatcherInput = z
  .object({
    kind: z.enum(FUNNEL_KINDS),
    event_name: trimmedText('event_name').openapi({
      description: `The exact action name (1 to ${ANALYTICS_FILTER_MAX} characters; surrounding spaces are trimmed).`,
    }),
  })
  .strict()
  .openapi('AnalyticsEventMatcher');

/** A matcher as answers echo it in `query`. */
export const EventMatcherOut = z.object({ kind: z.enum(FUNNEL_KINDS), event_name: z.string() });

export const filter = (what: string) =>
  z
    .string()
    .optional()
    .openapi({
      description: `Exact ${what}, 1 to ${ANALYTICS_FILTER_MAX} characters after trimming.`,
    });

/** A whole-number count with its meaning. */
export const count = (description: string) => z.number().int().openapi({ description });

export const fraction = (description: string) =>
  z
    .number()
    .min(0)
    .max(1)
    .openapi({
      description: `${description} A fraction from 0 to 1; 0 when the denominator is 0.`,
    });

export const matcher = (
  m: { kind: (typeof FUNNEL_KINDS)[number]; event_name: string } | undefined,
): EventMatcher => (m === undefined ? null : { kind: m.kind, eventName: m.event_name.trim() });

/** The `query` echo of a matcher: `null` for "any action". */
export const matcherEcho = (m: EventMatcher) =>
  m === null ? null : { kind: m.kind, event_name: m.eventName };

/**
 * The declaration every analytics POST shares: account bearer, no query keys, a JSON body,
 * the same failures, and the spec's note that an unreadable project answers zeros.
 */
export function analyticsPostRoute<
  P extends string,
  Req extends z.ZodType,
  Res extends z.ZodType,
>(o: {
  path: P;
  summary: string;
  description: string;
  body: Req;
  response: Res;
  responseDescription: string;
}) {
  return createRoute({
    method: 'post',
    path: o.path,
    tags: ['analytics'],
    summary: o.summary,
    description: `${o.description} An unreadable project gives \`200\` with zero counts (not \`404\`): an empty result does not confirm access.`,
    security: bearerSecurity,
    request: {
      query: z.object({}).strict(),
      body: { required: true, content: { 'application/json': { schema: o.body } } },
    },
    responses: {
      200: jsonContent(o.response, o.responseDescription),
      ...errorResponses(400, 401, 413, 415, 422),
    },
  });
}
