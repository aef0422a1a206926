import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { usagePeriod } from '../../domain/usage';
import { requireAccount } from '../../http/account-auth';
import { fail } from '../../core/api-error';
import type { AppEnv } from '../../http/app-env';
import type { Deps } from '../../core/deps';
import { bearerOrSessionSecurity, errorResponses, jsonContent } from '../../http/openapi-shared';
import { strictQuery } from '../../http/strict-query';

const LogUsageSchema = z
  .object({
    bytes_used: z.number().int().openapi({
      description: 'Log bytes billed to the account in the current usage period.',
    }),
    limit_bytes: z.number().int().openapi({ description: "The plan's log byte quota." }),
    month: z.string().openapi({ description: 'Start of the usage period, `YYYY-MM` (UTC).' }),
  })
  .openapi('LegacyLogUsage');

const getLogUsage = createRoute({
  method: 'get',
  path: '/api/logs/usage',
  tags: ['account'],
  summary: 'Legacy log usage (mobile compatibility)',
  description:
    'Legacy response kept for older mobile clients; new integrations use account usage. Counts ' +
    'the log bytes of every project the signed-in account owns (as billed: UTF-8 bytes of the ' +
    'message plus the attributes JSON). Account bearer or browser session; no query keys.',
  security: bearerOrSessionSecurity,
  request: { query: z.object({}).strict() },
  responses: {
    200: jsonContent(LogUsageSchema, 'Log bytes used and allowed this period.'),
    ...errorResponses(401, 422),
  },
});

export function registerLogUsageRoute(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  app.openapi(
    {
      ...getLogUsage,
      middleware: [
        requireAccount(deps, { session: true }),
        strictQuery(getLogUsage.request.query),
      ] as const,
    },
    async (c) => {
      const { accountId } = c.get('principal');
      const tier = await deps.store.usage.planTierOf(accountId);
      if (tier === null) throw fail.unauthorized();
      const period = usagePeriod(deps.now());
      const usage = await deps.store.usage.accountUsage(accountId, period.start);
      return c.json(
        {
          bytes_used: usage.logs.bytes,
          limit_bytes: deps.config.planQuotas[tier].log_bytes,
          month: new Date(period.start).toISOString().slice(0, 7),
        },
        200,
      );
    },
  );
}
