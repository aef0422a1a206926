import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { bucketWindowFields } from '../metrics/bucket-window-schema';
import { STREAMS, type Stream } from '../../domain/usage';
import { exactFilter } from '../../domain/read-rules/exact-filter';
import { parseProjectScope } from '../../domain/read-rules/project-scope';
import {
  AUTO_MAX_BUCKETS,
  INTERVAL_NAMES,
  MAX_BUCKETS,
  MAX_RANGE_DAYS,
  bucketStarts,
  parseSeriesWindow,
  parseVersionOne,
} from '../../domain/read-rules/series-window';
import { requireAccount } from '../../http/account-auth';
import { fail } from '../../core/api-error';
import type { AppEnv } from '../../http/app-env';
import type { Deps } from '../../core/deps';
import { bearerSecurity, errorResponses, jsonContent } from '../../http/openapi-shared';
import { readableProjectIds } from '../../http/readable-projects';
import {
  EXACT_FACETS,
  SINCE_31_DAYS_FACETS,
  TIMESTAMP_FACETS,
  UUID_FACETS,
  enumFacets,
  key,
  requiredKey,
} from '../../http/query-keys';
import { readQuery } from '../../http/read-query';
import { strictQuery } from '../../http/strict-query';
import { iso } from '../../views/telemetry-views';

const volumeQuery = (now: () => number) =>
  readQuery(
    {
      project_id: key(
        'One project (UUID); without it, every readable project. An unreadable project is `404`.',
        UUID_FACETS,
      ),
      since: requiredKey(
        `Required: \`<n>h\`, \`<n>d\` or RFC3339. The range to \`until\` is at most ${MAX_RANGE_DAYS} days.`,
        SINCE_31_DAYS_FACETS,
      ),
      until: key(
        'RFC3339, later than `since` and not in the future; default the request time.',
        TIMESTAMP_FACETS,
      ),
      interval: z
        .enum(['auto', ...INTERVAL_NAMES])
        .optional()
        .openapi({
          description: `Bucket size; \`auto\` (default) is the smallest giving at most ${AUTO_MAX_BUCKETS} buckets. More than ${MAX_BUCKETS} buckets gives \`422\`.`,
        }),
      service_name: key('Exact service name.', EXACT_FACETS),
      release: key('Exact release.', EXACT_FACETS),
      environment: key('Exact environment.', EXACT_FACETS),
      response_version: key(
        '`1` only (the default); anything else gives `422`.',
        enumFacets(['1']),
      ),
    },
    (q) => {
      const scope = parseProjectScope({ project_id: q.project_id });
      const window = parseSeriesWindow(q, now(), { futureUntil: false });
      const serviceName = exactFilter(q, 'service_name');
      const release = exactFilter(q, 'release');
      const environment = exactFilter(q, 'environment');
      parseVersionOne(q.response_version);
      return { scope, window, serviceName, release, environment };
    },
  );

const StreamVolumeSchema = z
  .object({
    events: z
      .array(z.number().int())
      .openapi({ description: 'Stored items per bucket (0 when none).' }),
    bytes: z
      .array(z.number().int())
      .openapi({ description: 'Their bytes per bucket, as usage counts them (0 when none).' }),
  })
  .openapi('StreamVolume');

const VolumeSchema = z
  .object({
    schema_version: z.literal(1),
    ...bucketWindowFields,
    streams: z.object({
      issues: StreamVolumeSchema,
      logs: StreamVolumeSchema,
      traces: StreamVolumeSchema.openapi({ description: 'Trace spans.' }),
      actions: StreamVolumeSchema,
      metrics: StreamVolumeSchema.openapi({ description: 'Metric samples.' }),
    }),
  })
  .openapi('VolumeSummary');

const getVolume = (now: () => number) =>
  createRoute({
    method: 'get',
    path: '/api/telemetry/summary/volume',
    tags: ['telemetry'],
    summary: 'Stored events and bytes per stream over time',
    description:
      'Counts stored items by their own time (`occurred_at`; a span’s start) in buckets of the interval; the range is widened to whole intervals from the epoch (UTC). ' +
      'Events and bytes are separate series; a bucket without items is `0` (these are counts).',
    security: bearerSecurity,
    request: { query: volumeQuery(now) },
    responses: {
      200: jsonContent(VolumeSchema, 'Volume per stream and bucket.'),
      ...errorResponses(401, 404, 422),
    },
  });

export function registerVolumeRoute(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  const auth = requireAccount(deps, { session: false });
  const route = getVolume(deps.now);
  app.openapi(
    { ...route, middleware: [auth, strictQuery(route.request.query)] as const },
    async (c) => {
      const { scope, window, serviceName, release, environment } = c.req.valid('query');

      const readable = await readableProjectIds(deps, c.get('principal').accountId);
      let projectIds = [...readable];
      if (scope.kind === 'one') {
        if (!readable.has(scope.projectId)) throw fail.notFound('project not found');
        projectIds = [scope.projectId];
      }
      const cells = await deps.store.volume.buckets({
        projectIds,
        from: window.from,
        to: window.to,
        stepMs: window.stepMs,
        serviceName,
        release,
        environment,
      });
      const zeros = () => Array.from({ length: window.bucketCount }, () => 0);
      const streams = Object.fromEntries(
        STREAMS.map((s) => [s, { events: zeros(), bytes: zeros() }]),
      ) as Record<Stream, { events: number[]; bytes: number[] }>;
      for (const cell of cells) {
        streams[cell.stream].events[cell.bucket] = cell.events;
        streams[cell.stream].bytes[cell.bucket] = cell.bytes;
      }
      return c.json(
        {
          schema_version: 1 as const,
          interval: window.interval,
          bucket_seconds: window.stepMs / 1000,
          since: iso(window.from),
          until: iso(window.to),
          buckets: bucketStarts(window).map(iso),
          streams,
        },
        200,
      );
    },
  );
}
