import { z, type OpenAPIHono } from '@hono/zod-openapi';
import {
  ANALYTICS_PERIODS,
  EventMatcherInput,
  EventMatcherOut,
  analyticsQueryEcho,
  analyticsRangeFields,
  filter,
  fraction,
  matcher,
  matcherEcho,
  type AnalyticsPeriod,
  analyticsPostRoute,
} from './analytics-body';
import { rate } from '../../domain/funnel';
import { periodCount, retentionCohorts, type EventMatcher } from '../../domain/retention';
import type { AppEnv } from '../../http/app-env';
import type { Deps } from '../../core/deps';
import { orNull } from '../../http/openapi-shared';
import { registerAnalyticsPost } from './analytics-post';
import { iso } from '../../views/telemetry-views';

const RetentionRequest = z
  .object({
    ...analyticsRangeFields,
    service_name: filter('service name'),
    release: filter('release'),
    environment: filter('environment'),
    period: z
      .enum(['day', 'week'])
      .optional()
      .openapi({ description: 'Cohort and return period, aligned at `since`; default `day`.' }),
    start_event: EventMatcherInput.optional().openapi({
      description: 'The action that puts a user in a cohort; any action when omitted.',
    }),
    return_event: EventMatcherInput.optional().openapi({
      description: 'The action that counts as a return; any action when omitted.',
    }),
  })
  .strict()
  .openapi('RetentionRequest');

const matcherOut = orNull(EventMatcherOut);

const RetentionResponse = z
  .object({
    schema_version: z.literal(1),
    query: z.object({
      ...analyticsQueryEcho,
      period: z.enum(['day', 'week']),
      start_event: matcherOut,
      return_event: matcherOut,
    }),
    period_seconds: z.number().int(),
    summary: z.object({
      units: z
        .number()
        .int()
        .openapi({ description: 'Users in a cohort (distinct `distinct_id`).' }),
      returning_units: z
        .number()
        .int()
        .openapi({ description: 'Of them, users returning in a later period.' }),
      return_rate: fraction('`returning_units` over `units`.'),
    }),
    cohorts: z.array(
      z.object({
        start: z.string().openapi({ format: 'date-time', description: 'Start of the period.' }),
        units: z.number().int().openapi({ description: 'Users whose first start event is in it.' }),
        retained: z.array(z.number().int()).openapi({
          description:
            'Per period offset from the cohort (0 is the cohort itself, its size): users with a return event then. As many as periods remain until `until`.',
        }),
        rates: z.array(fraction('`retained` over `units`.')),
      }),
    ),
    coverage: z.object({
      events: z.number().int().openapi({ description: 'Actions in range.' }),
      start_events: z.number().int(),
      return_events: z.number().int(),
      limitations: z.array(z.string()),
    }),
  })
  .openapi('Retention');

const postRetention = analyticsPostRoute({
  path: '/api/telemetry/analytics/retention',
  summary: 'Cohorts of users by their first start event and their later returns',
  description:
    'Users are `distinct_id` values. Periods (a day or a week) are aligned at `since`; the last is cut at `until`. A user belongs to the cohort of the period of its first start event in range and is retained in each later period holding one of its return events.',
  body: RetentionRequest,
  response: RetentionResponse,
  responseDescription: 'The retention cohorts.',
});

export function registerRetentionRoute(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  registerAnalyticsPost(
    app,
    deps,
    postRetention,
    async (body, { range, readable, query, echo }) => {
      const period: AnalyticsPeriod = body.period ?? 'day';
      const start: EventMatcher = matcher(body.start_event);
      const ret: EventMatcher = matcher(body.return_event);
      const periodMs = ANALYTICS_PERIODS[period];
      // Users are `distinct_id` values (the store reads them in user order).
      const counts = readable
        ? await deps.store.actions.retention({ ...query, periodMs, start, ret })
        : { events: 0, startEvents: 0, returnEvents: 0, activities: [] };
      const result = {
        ...retentionCohorts(periodCount(range.since, range.until, periodMs), counts.activities),
        startEvents: counts.startEvents,
        returnEvents: counts.returnEvents,
      };
      return {
        schema_version: 1 as const,
        query: {
          ...echo,
          period,
          start_event: matcherEcho(start),
          return_event: matcherEcho(ret),
        },
        period_seconds: periodMs / 1000,
        summary: {
          units: result.units,
          returning_units: result.returningUnits,
          return_rate: rate(result.returningUnits, result.units),
        },
        cohorts: result.cohorts.map((cohort, i) => ({
          start: iso(range.since + i * periodMs),
          units: cohort.units,
          retained: cohort.retained,
          rates: cohort.retained.map((n) => rate(n, cohort.units)),
        })),
        coverage: {
          events: counts.events,
          start_events: result.startEvents,
          return_events: result.returnEvents,
          limitations: [
            'Rates are fractions from 0 to 1; a rate whose denominator is 0 is reported as 0.',
            'Users are distinct_id values: an anonymous id counts as its own user, and one person under two ids counts twice.',
            'A user first seen before since is counted from its first start event in range; later cohorts have fewer periods to return in.',
          ],
        },
      };
    },
  );
}
