import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { rate } from '../../domain/funnel';
import {
  ANALYTICS_FILTER_MAX,
  analyticsFilter,
  parseAnalyticsRange,
} from '../../domain/read-rules/analytics-range';
import { invalid } from '../../domain/read-rules/read-rule-error';
import {
  AUTO_MAX_BUCKETS,
  INTERVAL_NAMES,
  MAX_BUCKETS,
  MAX_RANGE_DAYS,
  bucketStarts,
  parseSeriesWindow,
  parseVersionOne,
} from '../../domain/read-rules/series-window';
import { isUuid } from '../../domain/read-rules/uuid';
import { count } from './analytics-body';
import { requireAccount } from '../../http/account-auth';
import type { AppEnv } from '../../http/app-env';
import type { Deps } from '../../core/deps';
import { bearerSecurity, errorResponses, jsonContent } from '../../http/openapi-shared';
import {
  SINCE_31_DAYS_FACETS,
  TIMESTAMP_FACETS,
  UUID_FACETS,
  enumFacets,
  integerFacets,
  key,
  requiredKey,
} from '../../http/query-keys';
import { readQuery } from '../../http/read-query';
import { strictQuery } from '../../http/strict-query';
import type { ActionFilteredRange } from '../../core/store/telemetry/actions';
import { iso } from '../../views/telemetry-views';

export const TOP_LIMIT_DEFAULT = 10;
export const TOP_LIMIT_MAX = 50;
export const PROPERTIES_LIMIT_DEFAULT = 100;
export const PROPERTIES_LIMIT_MAX = 500;
const PROPERTY_TYPES = ['string', 'number', 'boolean', 'null', 'object', 'array'] as const;
type PropertyType = (typeof PROPERTY_TYPES)[number];
const JSON_TYPES: Record<string, PropertyType> = {
  text: 'string',
  integer: 'number',
  real: 'number',
  true: 'boolean',
  false: 'boolean',
  null: 'null',
  object: 'object',
  array: 'array',
};

/** 1 to ANALYTICS_FILTER_MAX characters once surrounding white space is trimmed. */
const ANALYTICS_FILTER_FACETS = {
  pattern: `^\\s*\\S(?:[\\s\\S]{0,${ANALYTICS_FILTER_MAX - 2}}\\S)?\\s*$`,
};
const filter = (what: string) =>
  key(
    `Exact ${what}, 1 to ${ANALYTICS_FILTER_MAX} characters after trimming.`,
    ANALYTICS_FILTER_FACETS,
  );
const rangeKeys = {
  project_id: requiredKey('Required: one project (UUID).', UUID_FACETS),
  since: requiredKey(
    `Required: \`<n>h\`, \`<n>d\` or RFC3339, inclusive. The range to \`until\` is at most ${MAX_RANGE_DAYS} days.`,
    SINCE_31_DAYS_FACETS,
  ),
  until: key('RFC3339, exclusive, later than `since`; default the request time.', TIMESTAMP_FACETS),
  service_name: filter('service name'),
  release: filter('release'),
  environment: filter('environment'),
};

const overviewQuery = (now: () => number) =>
  readQuery(
    {
      ...rangeKeys,
      interval: z
        .enum(['auto', ...INTERVAL_NAMES])
        .optional()
        .openapi({
          description: `Bucket size; \`auto\` (default) is the smallest giving at most ${AUTO_MAX_BUCKETS} buckets. More than ${MAX_BUCKETS} buckets gives \`422\`.`,
        }),
      top_limit: key(
        `1 to ${TOP_LIMIT_MAX} (default ${TOP_LIMIT_DEFAULT}): how many actions \`top_actions\` lists.`,
        integerFacets({
          minimum: 1,
          maximum: TOP_LIMIT_MAX,
          default: TOP_LIMIT_DEFAULT,
          digits: 6,
        }),
      ),
      response_version: key('`1` only (the default).', enumFacets(['1'])),
    },
    (q) => {
      const parsed = parseRangeQuery(q, now());
      const window = parseSeriesWindow(
        { since: q.since, until: q.until, interval: q.interval },
        now(),
        { futureUntil: true },
      );
      const topLimit = parseBounded(
        'top_limit',
        q.top_limit,
        TOP_LIMIT_DEFAULT,
        TOP_LIMIT_MAX,
        false,
      );
      parseVersionOne(q.response_version);
      return { parsed, window, topLimit };
    },
  );

const propertiesQuery = (now: () => number) =>
  readQuery(
    {
      ...rangeKeys,
      limit: key(
        `1 to ${PROPERTIES_LIMIT_MAX} (default ${PROPERTIES_LIMIT_DEFAULT}) keys; a larger value is replaced by ${PROPERTIES_LIMIT_MAX}.`,
        // Six digits at most: a larger number is refused, not replaced.
        integerFacets({ minimum: 1, default: PROPERTIES_LIMIT_DEFAULT, digits: 6 }),
      ),
    },
    (q) => {
      const parsed = parseRangeQuery(q, now());
      const limit = parseBounded(
        'limit',
        q.limit,
        PROPERTIES_LIMIT_DEFAULT,
        PROPERTIES_LIMIT_MAX,
        true,
      );
      return { parsed, limit };
    },
  );

const fraction = (description: string) =>
  z
    .number()
    .min(0)
    .max(1)
    .openapi({
      description: `${description} A fraction from 0 to 1; 0 when the denominator is 0.`,
    });

const AnalyticsFiltersSchema = z
  .object({
    service_name: z.string().nullable(),
    release: z.string().nullable(),
    environment: z.string().nullable(),
  })
  .openapi('AnalyticsFilters', { description: 'The exact filters as applied (trimmed).' });

const rangeFields = {
  schema_version: z.literal(1),
  project_id: z.string().openapi({ format: 'uuid' }),
  since: z.string().openapi({ format: 'date-time', description: 'Resolved, inclusive.' }),
  until: z.string().openapi({ format: 'date-time', description: 'Resolved, exclusive.' }),
  filters: AnalyticsFiltersSchema,
};

const AnalyticsOverviewSchema = z
  .object({
    ...rangeFields,
    interval: z.enum(INTERVAL_NAMES as [string, ...string[]]),
    bucket_seconds: z.number().int(),
    buckets: z.array(z.string().openapi({ format: 'date-time' })).openapi({
      description:
        'Start of each bucket: whole intervals from the epoch (UTC) covering the range; only actions in `[since, until)` are counted.',
    }),
    totals: z.object({
      events: count('Actions in range.'),
      users: count('Distinct `distinct_id` values.'),
      sessions: count('Distinct `session_id` values (actions without one are not a session).'),
      events_per_bucket: z
        .array(z.number().int())
        .openapi({ description: '0 for an empty bucket.' }),
    }),
    top_actions: z.array(
      z.object({
        name: z.string(),
        kind: z.enum(['page_view', 'screen_view', 'interaction']),
        events: count('Actions of this name and kind.'),
        users: count('Distinct `distinct_id` values among them.'),
        sessions: count('Distinct `session_id` values among them.'),
      }),
    ),
    truncated_actions: z.boolean().openapi({
      description: 'True when more name and kind pairs occurred than `top_actions` lists.',
    }),
    coverage: z.object({
      events: count('Actions in range.'),
      named_events: count('Actions with a non-blank name.'),
      session_events: count('Actions carrying a `session_id`.'),
      event_name_rate: fraction('`named_events` over `events`.'),
      session_rate: fraction('`session_events` over `events`.'),
      limitations: z.array(z.string()),
    }),
  })
  .openapi('AnalyticsOverview');

const AnalyticsPropertiesSchema = z
  .object({
    ...rangeFields,
    properties: z.array(
      z.object({
        key: z.string().openapi({ description: 'A top-level key of an action’s `properties`.' }),
        events: count('Actions holding the key.'),
        types: z
          .array(
            z.object({ type: z.enum(PROPERTY_TYPES), events: count('Actions with this type.') }),
          )
          .openapi({ description: 'Types seen for the key, most actions first.' }),
      }),
    ),
    truncated: z.boolean().openapi({ description: 'True when more keys were seen than `limit`.' }),
    coverage: z.object({
      events: count('Actions in range.'),
      events_with_properties: count('Actions whose `properties` hold at least one key.'),
      property_rate: fraction('`events_with_properties` over `events`.'),
      limitations: z.array(z.string()),
    }),
  })
  .openapi('AnalyticsProperties');

const UNREADABLE =
  'An unreadable project gives `200` with zero counts (not `404`): an empty result does not confirm access.';

const getOverview = (now: () => number) =>
  createRoute({
    method: 'get',
    path: '/api/telemetry/analytics/overview',
    tags: ['analytics'],
    summary: 'Action totals over time and the top actions of one project',
    description: `Counts of actions in \`[since, until)\` per bucket, distinct users and sessions, and the actions (name and kind) with the most events (then name, then kind). No identity is returned. ${UNREADABLE}`,
    security: bearerSecurity,
    request: { query: overviewQuery(now) },
    responses: {
      200: jsonContent(AnalyticsOverviewSchema, 'The overview.'),
      ...errorResponses(401, 422),
    },
  });

const getProperties = (now: () => number) =>
  createRoute({
    method: 'get',
    path: '/api/telemetry/analytics/properties',
    tags: ['analytics'],
    summary: 'Property keys seen on the actions of one project',
    description: `Top-level keys of the actions’ \`properties\` in \`[since, until)\`, with how many actions hold each and with which JSON types, most actions first (then key). ${UNREADABLE}`,
    security: bearerSecurity,
    request: { query: propertiesQuery(now) },
    responses: {
      200: jsonContent(AnalyticsPropertiesSchema, 'The property keys.'),
      ...errorResponses(401, 422),
    },
  });

function parseBounded(
  key: string,
  value: string | undefined,
  dflt: number,
  max: number,
  clamp: boolean,
): number {
  if (value === undefined) return dflt;
  if (!/^\d{1,6}$/.test(value) || Number(value) < 1 || (!clamp && Number(value) > max))
    throw invalid(`${key} must be an integer from 1 to ${max}`);
  return Math.min(Number(value), max);
}

type RangeQuery = Partial<Record<keyof typeof rangeKeys, string | undefined>>;

/** The shared analytics query: one project, the range and the exact filters. */
function parseRangeQuery(q: RangeQuery, now: number) {
  if (q.project_id === undefined) throw invalid('project_id is required');
  if (!isUuid(q.project_id)) throw invalid('project_id must be a UUID');
  const range = parseAnalyticsRange(q, now);
  const filters = {
    service_name: analyticsFilter('service_name', q.service_name),
    release: analyticsFilter('release', q.release),
    environment: analyticsFilter('environment', q.environment),
  };
  return { projectId: q.project_id.toLowerCase(), range, filters };
}

const storeRange = (p: ReturnType<typeof parseRangeQuery>): ActionFilteredRange => ({
  projectId: p.projectId,
  from: p.range.since,
  to: p.range.until,
  environment: p.filters.environment,
  serviceName: p.filters.service_name,
  release: p.filters.release,
});

export function registerAnalyticsReadRoutes(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  const auth = requireAccount(deps, { session: false });

  const overview = getOverview(deps.now);
  app.openapi(
    { ...overview, middleware: [auth, strictQuery(overview.request.query)] as const },
    async (c) => {
      const { parsed, window, topLimit } = c.req.valid('query');
      const readable = await deps.store.projects.readable(
        c.get('principal').accountId,
        parsed.projectId,
      );
      const result = readable
        ? await deps.store.actions.overview({
            ...storeRange(parsed),
            bucketFrom: window.from,
            stepMs: window.stepMs,
            topLimit,
          })
        : {
            totals: { events: 0, named: 0, withSession: 0, users: 0, sessions: 0 },
            buckets: [],
            top: [],
            actionCount: 0,
          };
      const perBucket = Array.from({ length: window.bucketCount }, () => 0);
      for (const b of result.buckets) perBucket[b.bucket] = b.events;
      const t = result.totals;
      return c.json(
        {
          schema_version: 1 as const,
          project_id: parsed.projectId,
          since: iso(parsed.range.since),
          until: iso(parsed.range.until),
          filters: parsed.filters,
          interval: window.interval,
          bucket_seconds: window.stepMs / 1000,
          buckets: bucketStarts(window).map(iso),
          totals: {
            events: t.events,
            users: t.users,
            sessions: t.sessions,
            events_per_bucket: perBucket,
          },
          top_actions: result.top.map((a) => ({
            name: a.name,
            kind: a.kind as 'page_view' | 'screen_view' | 'interaction',
            events: a.events,
            users: a.users,
            sessions: a.sessions,
          })),
          truncated_actions: result.actionCount > result.top.length,
          coverage: {
            events: t.events,
            named_events: t.named,
            session_events: t.withSession,
            event_name_rate: rate(t.named, t.events),
            session_rate: rate(t.withSession, t.events),
            limitations: [
              'Rates are fractions from 0 to 1; a rate whose denominator is 0 is reported as 0.',
              'Users are distinct_id values: an anonymous id counts as its own user.',
              'The first and last buckets may extend beyond the range; only actions in [since, until) are counted.',
            ],
          },
        },
        200,
      );
    },
  );

  const propertiesRoute = getProperties(deps.now);
  app.openapi(
    { ...propertiesRoute, middleware: [auth, strictQuery(propertiesRoute.request.query)] as const },
    async (c) => {
      const { parsed, limit } = c.req.valid('query');
      const readable = await deps.store.projects.readable(
        c.get('principal').accountId,
        parsed.projectId,
      );
      const result = readable
        ? await deps.store.actions.properties(storeRange(parsed))
        : { events: 0, withProperties: 0, keys: [] };
      const byKey = new Map<string, Map<PropertyType, number>>();
      for (const k of result.keys) {
        const type = JSON_TYPES[k.type] ?? 'null';
        let types = byKey.get(k.key);
        if (!types) byKey.set(k.key, (types = new Map()));
        types.set(type, (types.get(type) ?? 0) + k.events);
      }
      const properties = [...byKey.entries()]
        .map(([key, types]) => ({
          key,
          events: [...types.values()].reduce((a, b) => a + b, 0),
          types: [...types.entries()]
            .map(([type, events]) => ({ type, events }))
            .sort((a, b) => b.events - a.events || (a.type < b.type ? -1 : 1)),
        }))
        .sort((a, b) => b.events - a.events || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
      return c.json(
        {
          schema_version: 1 as const,
          project_id: parsed.projectId,
          since: iso(parsed.range.since),
          until: iso(parsed.range.until),
          filters: parsed.filters,
          properties: properties.slice(0, limit),
          truncated: properties.length > limit,
          coverage: {
            events: result.events,
            events_with_properties: result.withProperties,
            property_rate: rate(result.withProperties, result.events),
            limitations: [
              'Rates are fractions from 0 to 1; a rate whose denominator is 0 is reported as 0.',
              'Only top-level keys are listed; nested objects and arrays count as one value of type object or array.',
              'Property values are never returned.',
            ],
          },
        },
        200,
      );
    },
  );
}
