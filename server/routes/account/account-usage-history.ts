import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import {
  DEFAULT_HISTORY_INTERVAL,
  HISTORY_INTERVALS,
  historyBuckets,
  type HistoryInterval,
} from '../../domain/usage-history';
import { requireAccount } from '../../http/account-auth';
import { fail } from '../../core/api-error';
import type { AppEnv } from '../../http/app-env';
import type { Deps } from '../../core/deps';
import { bearerOrSessionSecurity, errorResponses, jsonContent } from '../../http/openapi-shared';
import { strictQuery } from '../../http/strict-query';
import { historyBucketViews } from '../../views/usage-history-view';
import { AccountUsageSchema, UsageHistoryBucketSchema } from './account-usage-schema';
import { loadAccountUsage } from './account-usage';

const HistoryQuery = z
  .object({
    interval: z.enum(HISTORY_INTERVALS).optional().openapi({
      description:
        '`daily` (30 buckets from 00:00 UTC), `weekly` (12, Monday 00:00 UTC), `monthly` (12, the 1st; the default) or `yearly` (5, 1 January).',
    }),
  })
  .strict();

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

const isInterval = (v: string): v is HistoryInterval =>
  (HISTORY_INTERVALS as readonly string[]).includes(v);

/** Refuses an unsupported interval with a `next` naming the allowed ones, before the schema. */
const intervalCheck: MiddlewareHandler<AppEnv> = async (c, next) => {
  const interval = c.get('strictQuery').interval;
  if (interval !== undefined && !isInterval(interval)) {
    throw fail.validation(
      `unsupported interval: ${interval}`,
      `Send interval=daily, weekly, monthly or yearly (the default is ${DEFAULT_HISTORY_INTERVAL}).`,
    );
  }
  await next();
};

export function registerAccountUsageHistoryRoute(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  app.openapi(
    {
      ...getHistory,
      middleware: [
        requireAccount(deps, { session: true }),
        strictQuery(Object.keys(HistoryQuery.shape)),
        intervalCheck,
      ] as const,
    },
    async (c) => {
      const raw = c.get('strictQuery').interval;
      const interval = raw !== undefined && isInterval(raw) ? raw : DEFAULT_HISTORY_INTERVAL;
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
