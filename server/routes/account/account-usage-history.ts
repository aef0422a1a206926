import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import {
  DEFAULT_HISTORY_INTERVAL,
  HISTORY_INTERVALS,
  historyBuckets,
  type HistoryInterval,
} from '../../domain/usage-history';
import { invalid } from '../../domain/read-rules/read-rule-error';
import { requireAccount } from '../../http/account-auth';
import type { AppEnv } from '../../http/app-env';
import type { Deps } from '../../core/deps';
import { bearerOrSessionSecurity, errorResponses, jsonContent } from '../../http/openapi-shared';
import { enumFacets, key } from '../../http/query-keys';
import { readQuery } from '../../http/read-query';
import { strictQuery } from '../../http/strict-query';
import { historyBucketViews } from '../../views/usage-history-view';
import { AccountUsageSchema, UsageHistoryBucketSchema } from './account-usage-schema';
import { loadAccountUsage } from './account-usage';

const isInterval = (v: string): v is HistoryInterval =>
  (HISTORY_INTERVALS as readonly string[]).includes(v);

const HistoryQuery = readQuery(
  {
    interval: key(
      '`daily` (30 buckets from 00:00 UTC), `weekly` (12, Monday 00:00 UTC), `monthly` (12, the 1st; the default) or `yearly` (5, 1 January).',
      enumFacets(HISTORY_INTERVALS),
    ),
  },
  (q): HistoryInterval => {
    // Its own text and a next naming the allowed values, rather than the generic enum answer.
    if (q.interval !== undefined && !isInterval(q.interval))
      throw invalid(
        `unsupported interval: ${q.interval}`,
        `Send interval=daily, weekly, monthly or yearly (the default is ${DEFAULT_HISTORY_INTERVAL}).`,
      );
    return q.interval ?? DEFAULT_HISTORY_INTERVAL;
  },
);

const UsageHistorySchema = z
  .object({
    interval: z.enum(HISTORY_INTERVALS),
    period_start: z.string().openapi({ format: 'date-time', description: 'First bucket start.' }),
    period_end: z
      .string()
      .openapi({ format: 'date-time', description: 'Last bucket end, exclusive.' }),
    current: AccountUsageSchema.openapi({
      description: 'The complete account usage response (version 1) for the current period.',
    }),
    buckets: z.array(UsageHistoryBucketSchema),
  })
  .openapi('UsageHistory');

const getHistory = createRoute({
  method: 'get',
  path: '/api/account/usage/history',
  tags: ['account'],
  summary: 'Usage per calendar period',
  description:
    'Usage of the projects the account owns per UTC calendar bucket, oldest first and zero-filled; the last bucket is the current, unfinished period. Usage is counted per UTC day of receipt. Only the query key `interval`; an unsupported value or any other key gives `422 validation_failed`. Account bearer or browser session.',
  security: bearerOrSessionSecurity,
  request: { query: HistoryQuery },
  responses: {
    200: jsonContent(UsageHistorySchema, 'Usage history.'),
    ...errorResponses(401, 422),
  },
});

export function registerAccountUsageHistoryRoute(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  app.openapi(
    {
      ...getHistory,
      middleware: [requireAccount(deps, { session: true }), strictQuery(HistoryQuery)] as const,
    },
    async (c) => {
      const interval = c.req.valid('query');
      const { accountId } = c.get('principal');
      const current = await loadAccountUsage(deps, accountId, 1);
      const buckets = historyBuckets(interval, deps.now());
      const first = buckets[0];
      const last = buckets[buckets.length - 1];
      if (!first || !last) throw new Error('usage history has no buckets');
      const [ownedProjects, daily] = await Promise.all([
        deps.store.usage.ownedProjects(accountId),
        deps.store.usage.dailyUsage(accountId, first.start),
      ]);
      return c.json(
        {
          interval,
          period_start: new Date(first.start).toISOString(),
          period_end: new Date(last.end).toISOString(),
          current,
          buckets: historyBucketViews(buckets, ownedProjects, daily),
        },
        200,
      );
    },
  );
}
