import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { parseResponseVersion } from '../../domain/issue-triage';
import { usagePeriod } from '../../domain/usage';
import { requireAccount } from '../../http/account-auth';
import { fail } from '../../core/api-error';
import type { AppEnv } from '../../http/app-env';
import type { Deps } from '../../core/deps';
import { bearerOrSessionSecurity, errorResponses, jsonContent } from '../../http/openapi-shared';
import { readQuery } from '../../http/read-query';
import { strictQuery } from '../../http/strict-query';
import { accountUsageView } from '../../views/account-usage-view';
import { AccountUsageSchema } from './account-usage-schema';

const UsageQuery = readQuery(
  {
    response_version: z.enum(['1', '2']).optional().openapi({
      description: '`1` (default) or `2` (adds `sdk_dropped_events`); others give `422`.',
    }),
  },
  (q) => parseResponseVersion(q.response_version, [1, 2] as const, 1),
);

const getUsage = createRoute({
  method: 'get',
  path: '/api/account/usage',
  tags: ['account'],
  summary: 'Account usage against the plan allowance',
  description:
    'A snapshot of the current usage period (calendar month, UTC) for every project in organizations the account owns: totals, per project (every owned project, zero rows included) and per stream, the plan, and the quota state computed from the same counters and allowances ingestion enforces with `429 usage_limit_exceeded`. `warning` starts at `warning_threshold` (0.8) of a limit, `blocked` once a limit is used up; `limit` names the blocked group before a warning one. `limits.events`, `limits.bytes` and `limits.projects` are compatibility fields, always `null`. Account bearer or browser session.',
  security: bearerOrSessionSecurity,
  request: { query: UsageQuery },
  responses: {
    200: jsonContent(AccountUsageSchema, 'Account usage.'),
    ...errorResponses(401, 422),
  },
});

/** The full account usage response (also `current` of usage history). */
export async function loadAccountUsage(deps: Deps, accountId: string, version: 1 | 2) {
  const subscription = await deps.store.usage.subscriptionOf(accountId);
  if (!subscription) throw fail.unauthorized();
  const period = usagePeriod(deps.now());
  const [usage, ownedProjects, daily, dropped] = await Promise.all([
    deps.store.usage.accountUsage(accountId, period.start),
    deps.store.usage.ownedProjects(accountId),
    deps.store.usage.dailyUsage(accountId, period.start),
    version === 2 ? deps.store.usage.droppedEvents(accountId, period.start) : null,
  ]);
  return accountUsageView({
    period,
    subscription,
    quota: deps.config.planQuotas[subscription.tier],
    usage,
    ownedProjects,
    daily,
    dropped,
  });
}

export function registerAccountUsageRoute(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  app.openapi(
    {
      ...getUsage,
      middleware: [requireAccount(deps, { session: true }), strictQuery(UsageQuery)] as const,
    },
    async (c) => {
      const version = c.req.valid('query');
      return c.json(await loadAccountUsage(deps, c.get('principal').accountId, version), 200);
    },
  );
}
