import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { bucketWindowFields } from './bucket-window-schema';
import { aggregate, aggregationOf } from '../../domain/metric-aggregation';
import { exactFilter } from '../../domain/read-rules/exact-filter';
import { invalid } from '../../domain/read-rules/read-rule-error';
import {
  AUTO_MAX_BUCKETS,
  INTERVAL_NAMES,
  MAX_BUCKETS,
  MAX_RANGE_DAYS,
  bucketStarts,
  parseSeriesWindow,
  parseVersionOne,
  type SeriesWindow,
} from '../../domain/read-rules/series-window';
import { isUuid } from '../../domain/read-rules/uuid';
import { requireAccount } from '../../http/account-auth';
import { fail } from '../../core/api-error';
import type { AppEnv } from '../../http/app-env';
import type { Deps } from '../../core/deps';
import { bearerSecurity, errorResponses, jsonContent } from '../../http/openapi-shared';
import {
  EXACT_FACETS,
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
import type { MetricGroupBy } from '../../core/store/telemetry/metrics';
import { iso } from '../../views/telemetry-views';

export const SERIES_LIMIT_DEFAULT = 10;
export const SERIES_LIMIT_MAX = 20;
const GROUP_BY = ['none', 'service_name', 'release', 'environment'] as const;

/** The keys of a series read (shared with the metric investigation, which takes the same). */
export const seriesKeys = {
  project_id: requiredKey('Required: one project (UUID).', UUID_FACETS),
  name: requiredKey('Required: the exact metric name.', EXACT_FACETS),
  since: requiredKey(
    `Required: \`<n>h\`, \`<n>d\` or RFC3339. The range to \`until\` is at most ${MAX_RANGE_DAYS} days.`,
    SINCE_31_DAYS_FACETS,
  ),
  until: key('RFC3339, later than `since`; default the request time.', TIMESTAMP_FACETS),
  interval: z
    .enum(['auto', ...INTERVAL_NAMES])
    .optional()
    .openapi({
      description: `Bucket size; \`auto\` (default) is the smallest giving at most ${AUTO_MAX_BUCKETS} buckets. More than ${MAX_BUCKETS} buckets gives \`422\`.`,
    }),
  group_by: z.enum(GROUP_BY).optional().openapi({
    description: 'One series per value of this field; `none` (default) is one series.',
  }),
  service_name: key('Exact service name.', EXACT_FACETS),
  release: key('Exact release.', EXACT_FACETS),
  environment: key('Exact environment.', EXACT_FACETS),
  series_limit: key(
    `1 to ${SERIES_LIMIT_MAX} (default ${SERIES_LIMIT_DEFAULT}): the series with the most samples are kept.`,
    integerFacets({
      minimum: 1,
      maximum: SERIES_LIMIT_MAX,
      default: SERIES_LIMIT_DEFAULT,
      digits: 3,
    }),
  ),
  response_version: key('`1` only (the default).', enumFacets(['1'])),
};

/** A series read's query: its keys and the rules that make a `SeriesRequest` of them. */
export const seriesQuery = (now: () => number) =>
  readQuery(seriesKeys, (q) => parseSeriesRequest(q, now()));

export const MetricSeriesSchema = z
  .object({
    schema_version: z.literal(1),
    project_id: z.string().openapi({ format: 'uuid' }),
    name: z.string(),
    kind: z.enum(['counter', 'gauge', 'histogram']).nullable().openapi({
      description: 'Kind of the newest sample in range; `null` when there is none.',
    }),
    unit: z.string().nullable(),
    aggregation: z.enum(['avg', 'sum', 'max']).nullable().openapi({
      description:
        'Value of a bucket: `avg` of the samples for gauges and histograms, `sum` for counters (delta), `max` for cumulative counters; `null` without samples.',
    }),
    group_by: z.enum(GROUP_BY),
    ...bucketWindowFields,
    series: z.array(
      z.object({
        key: z.string().nullable().openapi({
          description: 'The `group_by` value; `null` for `group_by=none`.',
        }),
        values: z.array(z.number().nullable()).openapi({
          description: 'One per bucket; `null` where the bucket has no sample (never 0).',
        }),
        samples: z.array(z.number().int()).openapi({ description: 'Samples per bucket.' }),
      }),
    ),
    truncated_series: z
      .boolean()
      .openapi({ description: 'True when more series matched than `series_limit`.' }),
  })
  .openapi('MetricSeries');

const getSeries = (now: () => number) =>
  createRoute({
    method: 'get',
    path: '/api/telemetry/metrics/series',
    tags: ['telemetry'],
    summary: 'One metric over time, per bucket',
    description:
      'Samples of one metric of one project, aggregated per bucket by the metric’s kind. The range is widened to whole intervals from the epoch (UTC). ' +
      'Series are ordered by their number of samples (most first), then key. An unreadable project is `404`.',
    security: bearerSecurity,
    request: { query: seriesQuery(now) },
    responses: {
      200: jsonContent(MetricSeriesSchema, 'The series.'),
      ...errorResponses(401, 404, 422),
    },
  });

function parseSeriesLimit(value: string | undefined): number {
  if (value === undefined) return SERIES_LIMIT_DEFAULT;
  if (!/^\d{1,3}$/.test(value) || Number(value) < 1 || Number(value) > SERIES_LIMIT_MAX)
    throw invalid(`series_limit must be an integer from 1 to ${SERIES_LIMIT_MAX}`);
  return Number(value);
}

/** A validated series request (shared with the metric investigation, which takes the same keys). */
export type SeriesRequest = {
  projectId: string;
  name: string;
  window: SeriesWindow;
  groupBy: MetricGroupBy;
  serviceName: string | null;
  release: string | null;
  environment: string | null;
  seriesLimit: number;
};

/** Every query value is checked here, before access is, so a bad request is a 422 whatever it reads. */
export function parseSeriesRequest(
  q: Record<string, string | undefined>,
  now: number,
): SeriesRequest {
  if (q.project_id === undefined) throw invalid('project_id is required');
  if (!isUuid(q.project_id)) throw invalid('project_id must be a UUID');
  const name = exactFilter(q, 'name');
  if (name === null) throw invalid('name is required');
  const window = parseSeriesWindow(q, now, { futureUntil: true });
  const groupBy: MetricGroupBy = GROUP_BY.find((g) => g === q.group_by) ?? 'none';
  const serviceName = exactFilter(q, 'service_name');
  const release = exactFilter(q, 'release');
  const environment = exactFilter(q, 'environment');
  const seriesLimit = parseSeriesLimit(q.series_limit);
  parseVersionOne(q.response_version);
  return {
    projectId: q.project_id.toLowerCase(),
    name,
    window,
    groupBy,
    serviceName,
    release,
    environment,
    seriesLimit,
  };
}

/** The series answer of a request whose project the caller can read. */
export async function readMetricSeries(deps: Deps, r: SeriesRequest) {
  const { window, seriesLimit } = r;
  const result = await deps.store.metrics.series({
    projectId: r.projectId,
    name: r.name,
    from: window.from,
    to: window.to,
    stepMs: window.stepMs,
    groupBy: r.groupBy,
    serviceName: r.serviceName,
    release: r.release,
    environment: r.environment,
  });
  const aggregation = result.kind === null ? null : aggregationOf(result.kind, result.temporality);
  const byKey = new Map<
    string | null,
    { values: (number | null)[]; samples: number[]; total: number }
  >();
  for (const cell of result.cells) {
    let s = byKey.get(cell.key);
    if (!s) {
      s = {
        values: Array.from({ length: window.bucketCount }, () => null),
        samples: Array.from({ length: window.bucketCount }, () => 0),
        total: 0,
      };
      byKey.set(cell.key, s);
    }
    s.values[cell.bucket] = aggregation === null ? null : aggregate(aggregation, cell);
    s.samples[cell.bucket] = cell.samples;
    s.total += cell.samples;
  }
  const keyOrder = (a: string | null, b: string | null) =>
    a === b ? 0 : a === null ? -1 : b === null ? 1 : a < b ? -1 : 1;
  const ordered = [...byKey.entries()].sort(
    ([ka, a], [kb, b]) => b.total - a.total || keyOrder(ka, kb),
  );
  return {
    schema_version: 1 as const,
    project_id: r.projectId,
    name: r.name,
    kind: result.kind,
    unit: result.unit,
    aggregation,
    group_by: r.groupBy,
    interval: window.interval,
    bucket_seconds: window.stepMs / 1000,
    since: iso(window.from),
    until: iso(window.to),
    buckets: bucketStarts(window).map(iso),
    series: ordered
      .slice(0, seriesLimit)
      .map(([key, s]) => ({ key, values: s.values, samples: s.samples })),
    truncated_series: ordered.length > seriesLimit,
  };
}

export function registerMetricSeriesRoute(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  const auth = requireAccount(deps, { session: false });
  const route = getSeries(deps.now);
  app.openapi(
    { ...route, middleware: [auth, strictQuery(route.request.query)] as const },
    async (c) => {
      const request = c.req.valid('query');
      if (!(await deps.store.projects.readable(c.get('principal').accountId, request.projectId)))
        throw fail.notFound('project not found');
      return c.json(await readMetricSeries(deps, request), 200);
    },
  );
}
