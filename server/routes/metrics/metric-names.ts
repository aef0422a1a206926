import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { MetricNamesQuery } from '../../core/store/telemetry/metrics';
import { fail } from '../../core/api-error';
import type { Deps } from '../../core/deps';
import { MAX_LIMIT, parseLimit } from '../../domain/read-rules/limit';
import { invalid } from '../../domain/read-rules/read-rule-error';
import { parseTimeRange } from '../../domain/read-rules/time-range';
import { isUuid } from '../../domain/read-rules/uuid';
import { requireAccount } from '../../http/account-auth';
import type { AppEnv } from '../../http/app-env';
import { bearerSecurity, errorResponses, jsonContent } from '../../http/openapi-shared';
import {
  SINCE_FACETS,
  TIMESTAMP_FACETS,
  UUID_FACETS,
  integerFacets,
  key,
  requiredKey,
} from '../../http/query-keys';
import { readQuery } from '../../http/read-query';
import { strictQuery } from '../../http/strict-query';
import { iso } from '../../views/telemetry-views';

/** The names read's keys; `limit` is replaced by its maximum when larger, as elsewhere. */
const namesKeys = {
  project_id: requiredKey('Required: one project (UUID).', UUID_FACETS),
  since: requiredKey('Required: `<n>h`, `<n>d` or RFC3339; inclusive.', SINCE_FACETS),
  until: key('RFC3339, exclusive, later than `since`; default the request time.', TIMESTAMP_FACETS),
  limit: key(
    `Names at most: default and maximum ${MAX_LIMIT} (a larger value is replaced by it).`,
    integerFacets({ minimum: 1, default: MAX_LIMIT }),
  ),
};

const MetricNameSchema = z.object({
  name: z.string().openapi({ description: 'Exact name, as `name` of the series route takes it.' }),
  kind: z.enum(['counter', 'gauge', 'histogram']).openapi({
    description: 'Kind of the newest sample of this name in range.',
  }),
  unit: z.string().nullable().openapi({ description: 'Unit of that sample; `null` when missing.' }),
  last_seen_at: z.string().openapi({ format: 'date-time', description: 'That sample’s time.' }),
});

export const MetricNamesSchema = z
  .object({
    project_id: z.string().openapi({ format: 'uuid' }),
    since: z.string().openapi({ format: 'date-time' }),
    until: z.string().openapi({ format: 'date-time' }),
    names: z.array(MetricNameSchema),
    truncated: z
      .boolean()
      .openapi({ description: 'True when more names have samples in range than `limit`.' }),
  })
  .openapi('MetricNames');

const getNames = (now: () => number) =>
  createRoute({
    method: 'get',
    path: '/api/telemetry/metrics/names',
    tags: ['telemetry'],
    summary: 'Metric names of one project with samples in a range',
    description:
      'Every metric name of the project with at least one sample in the range, by name, however rare among the samples: the choices of the series route’s `name`. ' +
      'Not in the service contract: an extension of this service. An unreadable project is `404`.',
    security: bearerSecurity,
    request: { query: readQuery(namesKeys, (q) => parseNamesRequest(q, now())) },
    responses: {
      200: jsonContent(MetricNamesSchema, 'The names.'),
      ...errorResponses(401, 404, 422),
    },
  });

/** Every query value is checked before access is, so a bad request is a 422 whatever it reads. */
export function parseNamesRequest(
  q: Partial<Record<string, string>>,
  now: number,
): MetricNamesQuery {
  if (q.project_id === undefined) throw invalid('project_id is required');
  if (!isUuid(q.project_id)) throw invalid('project_id must be a UUID');
  if (q.since === undefined) throw invalid('since is required');
  const range = parseTimeRange(q, now);
  const from = range.since ?? now;
  const to = range.until ?? now;
  if (to <= from) throw invalid('until must be later than since');
  const limit = parseLimit(q.limit, { fallback: MAX_LIMIT, max: MAX_LIMIT });
  return { projectId: q.project_id.toLowerCase(), from, to, limit };
}

export function registerMetricNamesRoute(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  const auth = requireAccount(deps, { session: false });
  const route = getNames(deps.now);
  app.openapi(
    { ...route, middleware: [auth, strictQuery(route.request.query)] as const },
    async (c) => {
      const q = c.req.valid('query');
      if (!(await deps.store.projects.readable(c.get('principal').accountId, q.projectId)))
        throw fail.notFound('project not found');
      const rows = await deps.store.metrics.names({ ...q, limit: q.limit + 1 });
      return c.json(
        {
          project_id: q.projectId,
          since: iso(q.from),
          until: iso(q.to),
          names: rows.slice(0, q.limit).map((r) => ({
            name: r.name,
            kind: r.kind,
            unit: r.unit,
            last_seen_at: iso(r.lastSeenAt),
          })),
          truncated: rows.length > q.limit,
        },
        200,
      );
    },
  );
}
