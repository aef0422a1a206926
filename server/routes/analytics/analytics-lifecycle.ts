import { z, type OpenAPIHono } from '@hono/zod-openapi';
import {
  ANALYTICS_PERIODS,
  EventMatcherInput,
  EventMatcherOut,
  analyticsQueryEcho,
  analyticsRangeFields,
  count,
  filter,
  matcher,
  matcherEcho,
  type AnalyticsPeriod,
  analyticsPostRoute,
} from './analytics-body';
import { lifecycleFromActivity } from '../../domain/lifecycle';
import { periodCount } from '../../domain/retention';
import type { AppEnv } from '../../http/app-env';
import type { Deps } from '../../core/deps';
import { orNull } from '../../http/openapi-shared';
import { registerAnalyticsPost } from './analytics-post';
import { iso } from '../../views/telemetry-views';

const LifecycleRequest = z
  .object({
    ...analyticsRangeFields,
    service_name: filter('service name'),
    release: filter('release'),
    environment: filter('environment'),
    period: z
      .enum(['day', 'week'])
      .optional()
      .openapi({ description: 'Period, aligned at `since`; default `day`.' }),
    event: EventMatcherInput.optional().openapi({
      description: 'The action that makes a user active; any action when omitted.',
    }),
  })
  .strict()
  .openapi('LifecycleRequest');

const LifecycleResponse = z
  .object({
    schema_version: z.literal(1),
    query: z.object({
      ...analyticsQueryEcho,
      period: z.enum(['day', 'week']),
      event: orNull(EventMatcherOut),
    }),
    period_seconds: z.number().int(),
    summary: z.object({
      active_units: count('Distinct users (`distinct_id`) active in range.'),
      new_units: count(
        'Users counted `new` (each active user is new once, in its first period in range, so this equals `active_units`).',
      ),
      returning_units: count('Users `returning` in at least one period.'),
      resurrecting_units: count('Users `resurrecting` in at least one period.'),
      dormant_units: count('Users `dormant` in at least one period.'),
    }),
    periods: z.array(
      z.object({
        start: z.string().openapi({ format: 'date-time', description: 'Start of the period.' }),
        active: count('Users active in it (`new` + `returning` + `resurrecting`).'),
        new: count('Users whose first active period in range is this one.'),
        returning: count('Users active in it and in the previous period.'),
        resurrecting: count(
          'Users active in it, not in the previous period, but in an earlier one.',
        ),
        dormant: count(
          'Users active in the previous period and not in this one (a positive count; charts draw it below zero).',
        ),
      }),
    ),
    coverage: z.object({
      events: count('Actions in range (and filters).'),
      matching_events: count('Of them, actions that make a user active (`event`).'),
      limitations: z.array(z.string()),
    }),
  })
  .openapi('Lifecycle');

const postLifecycle = analyticsPostRoute({
  path: '/api/telemetry/analytics/lifecycle',
  summary: 'New, returning, resurrecting and dormant users per period',
  description:
    'Users are `distinct_id` values. Periods (a day or a week) are aligned at `since`; the last is cut at `until`. Every period is listed. The range is not looked beyond: a user first seen before `since` is new in its first period in range, and the first period has only new users.',
  body: LifecycleRequest,
  response: LifecycleResponse,
  responseDescription: 'The lifecycle per period.',
});

export function registerLifecycleRoute(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  registerAnalyticsPost(
    app,
    deps,
    postLifecycle,
    async (body, { range, readable, query, echo }) => {
      const period: AnalyticsPeriod = body.period ?? 'day';
      const event = matcher(body.event);
      // Lifecycle is about people: always `distinct_id` (every action has one).
      const periodMs = ANALYTICS_PERIODS[period];
      const counts = readable
        ? await deps.store.actions.lifecycle({ ...query, periodMs, event })
        : { events: 0, matchingEvents: 0, activities: [] };
      const result = lifecycleFromActivity(
        periodCount(range.since, range.until, periodMs),
        counts.activities,
        counts.matchingEvents,
      );
      return {
        schema_version: 1 as const,
        query: {
          ...echo,
          period,
          event: matcherEcho(event),
        },
        period_seconds: periodMs / 1000,
        summary: {
          active_units: result.activeUnits,
          new_units: result.periods.reduce((n, p) => n + p.new, 0),
          returning_units: result.returningUnits,
          resurrecting_units: result.resurrectingUnits,
          dormant_units: result.dormantUnits,
        },
        periods: result.periods.map((p, i) => ({
          start: iso(range.since + i * periodMs),
          active: p.active,
          new: p.new,
          returning: p.returning,
          resurrecting: p.resurrecting,
          dormant: p.dormant,
        })),
        coverage: {
          events: counts.events,
          matching_events: result.matchingEvents,
          limitations: [
            'The range is not looked beyond: a user active before since is new in its first period in range.',
            'The first period has no previous period, so it holds only new users and no dormant ones.',
            'Users are distinct_id values: an anonymous id counts as its own user, and one person under two ids counts twice.',
            'Dormant counts users active in the previous period and not in this one; it is reported as a positive number.',
          ],
        },
      };
    },
  );
}
