import { readableProjectIds } from '../../http/readable-projects';
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import {
  DEFAULT_HISTOGRAM_BUCKETS,
  HOUR_MS,
  MAX_HISTOGRAM_BUCKETS,
  bucketCounts,
  histogramWindow,
  parseBuckets,
} from '../../domain/issue-histogram';
import { invalid } from '../../domain/read-rules/read-rule-error';
import { parseTimeRange } from '../../domain/read-rules/time-range';
import { UUID_SOURCE } from '../../domain/read-rules/uuid';
import { requireAccount } from '../../http/account-auth';
import type { AppEnv } from '../../http/app-env';
import type { Deps } from '../../core/deps';
import { bearerSecurity, errorResponses, jsonContent } from '../../http/openapi-shared';
import {
  SINCE_FACETS,
  TIMESTAMP_FACETS,
  integerFacets,
  key,
  requiredKey,
} from '../../http/query-keys';
import { readQuery } from '../../http/read-query';
import { strictQuery } from '../../http/strict-query';
import { describe as describeZodError } from '../../http/validation-hook';
import { fixedPathMethods } from './issue-access';
import { BULK_MAX, IssueIdsSchema } from './issue-changes';

const PATH = '/api/telemetry/issues/histograms';

const histogramQuery = (now: () => number) =>
  readQuery(
    {
      issue_ids: requiredKey(
        `Required: 1 to ${BULK_MAX} distinct issue UUIDs, comma-separated (the same rules and error texts as the bulk change's \`issue_ids\`).`,
        {
          pattern: `^${UUID_SOURCE}(,${UUID_SOURCE}){0,${BULK_MAX - 1}}$`,
          'x-distinct-items': true,
        },
      ),
      since: requiredKey(
        'Required: `<n>h`, `<n>d` (before the request time) or RFC3339. Floored to the whole UTC hour.',
        SINCE_FACETS,
      ),
      until: key(
        'RFC3339, later than `since`; default the request time. Ceiled to the whole UTC hour.',
        TIMESTAMP_FACETS,
      ),
      buckets: key(
        `Integer from 1 to ${MAX_HISTOGRAM_BUCKETS}; default ${DEFAULT_HISTOGRAM_BUCKETS}. Anything else gives \`422\`.`,
        integerFacets({
          minimum: 1,
          maximum: MAX_HISTOGRAM_BUCKETS,
          default: DEFAULT_HISTOGRAM_BUCKETS,
          digits: 3,
        }),
      ),
    },
    (q) => {
      const issueIds = parseIssueIds(q.issue_ids);
      const at = now();
      const range = parseTimeRange({ since: q.since, until: q.until }, at);
      const since = range.since ?? at;
      const until = range.until ?? at;
      if (until <= since) throw invalid('until must be later than since');
      return { issueIds, window: histogramWindow(since, until, parseBuckets(q.buckets)) };
    },
  );

const IssueHistogramsSchema = z
  .object({
    since: z.string().openapi({
      format: 'date-time',
      description: 'Start of the first bucket: `since` floored to the UTC hour (inclusive).',
    }),
    until: z.string().openapi({
      format: 'date-time',
      description: 'End of the last bucket: `until` ceiled to the UTC hour (exclusive).',
    }),
    bucket_seconds: z.number().int().openapi({
      description: 'Length of every bucket but possibly the last, in seconds (whole hours).',
    }),
    issues: z.array(
      z.object({
        issue_id: z.string().openapi({ format: 'uuid' }),
        counts: z.array(z.number().int()).openapi({
          description:
            'Occurrences stored per bucket, oldest first; every issue has the same number of buckets.',
        }),
      }),
    ),
  })
  .openapi('IssueHistograms');

const getHistograms = (now: () => number) =>
  createRoute({
    method: 'get',
    path: PATH,
    tags: ['issues'],
    summary: 'Occurrences over time of up to 100 issues',
    description: [
      'Counts the stored occurrences of each issue (by `occurred_at`) in buckets of whole UTC hours, for sparklines.',
      'The range is widened to hour boundaries (`since` floored, `until` ceiled); with `hours` the widened length, each bucket spans `ceil(hours / buckets)` hours, so there are at most `buckets` buckets and the last one ends at `until` and may be shorter.',
      'Issues come in request order, and only those the account can read: an unknown id, or one of a project the account cannot read, is simply absent from `issues` (never `404`).',
      'A duplicate occurrence (an occurrence id the project already stored) is not stored and not counted.',
      'Other methods on this path answer `405`.',
    ].join(' '),
    security: bearerSecurity,
    request: { query: histogramQuery(now) },
    responses: {
      200: jsonContent(IssueHistogramsSchema, 'Counts per bucket, per readable issue.'),
      ...errorResponses(401, 422),
    },
  });

/** `issue_ids` as sent, checked with the bulk route's rules; lowercased. */
function parseIssueIds(raw: string): string[] {
  const parsed = z.object({ issue_ids: IssueIdsSchema }).safeParse({
    issue_ids: raw === '' ? [] : raw.split(','),
  });
  if (!parsed.success) throw invalid(describeZodError(parsed.error));
  return parsed.data.issue_ids.map((id) => id.toLowerCase());
}

export function registerIssueHistogramsRoute(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  const route = getHistograms(deps.now);
  app.openapi(
    {
      ...route,
      middleware: [
        requireAccount(deps, { session: false }),
        strictQuery(route.request.query),
      ] as const,
    },
    async (c) => {
      const { issueIds, window } = c.req.valid('query');
      const projectIds = [...(await readableProjectIds(deps, c.get('principal').accountId))];
      const { readable, hours } = await deps.store.occurrences.hours({
        projectIds,
        issueIds,
        fromHour: window.fromHour,
        toHour: window.toHour,
      });
      const counts = bucketCounts(hours, window);
      const canRead = new Set(readable);
      const empty = () => Array.from({ length: window.bucketCount }, () => 0);
      return c.json(
        {
          since: new Date(window.fromHour * HOUR_MS).toISOString(),
          until: new Date(window.toHour * HOUR_MS).toISOString(),
          bucket_seconds: window.bucketHours * 3600,
          issues: issueIds
            .filter((id) => canRead.has(id))
            .map((id) => ({ issue_id: id, counts: counts.get(id) ?? empty() })),
        },
        200,
      );
    },
  );
  fixedPathMethods(app, PATH, ['GET']);
}
