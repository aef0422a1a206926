import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { requireAccount } from '../http/account-auth';
import { fail } from '../http/api-error';
import type { AppEnv, Deps } from '../http/app-env';
import { bearerOrSessionSecurity, errorResponses, jsonContent } from '../http/openapi-shared';
import { registerAccountSubscriptionRoute } from './account-subscription';
import { registerAccountUsageRoute } from './account-usage';
import { registerAccountUsageHistoryRoute } from './account-usage-history';

const AccountSchema = z
  .object({
    account_id: z.string().openapi({ format: 'uuid' }),
    email: z.string(),
    name: z.string().nullable(),
    organizations: z.array(
      z.object({
        id: z.string().openapi({ format: 'uuid' }),
        name: z.string(),
        role: z.enum(['owner', 'admin', 'member']),
      }),
    ),
  })
  .openapi('Account');

const getAccount = createRoute({
  method: 'get',
  path: '/api/account',
  tags: ['account'],
  summary: 'Who is signed in',
  description:
    'The signed-in account and its organizations with roles. Account bearer or browser session.',
  security: bearerOrSessionSecurity,
  request: { query: z.object({}).strict() },
  responses: {
    200: jsonContent(AccountSchema, 'The signed-in account.'),
    ...errorResponses(401, 422),
  },
});

export function registerAccountRoutes(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  registerAccountUsageRoute(app, deps);
  registerAccountUsageHistoryRoute(app, deps);
  registerAccountSubscriptionRoute(app, deps);
  app.openapi(
    { ...getAccount, middleware: [requireAccount(deps, { session: true })] as const },
    async (c) => {
      const { accountId } = c.get('principal');
      const account = await deps.store.accounts.byId(accountId);
      if (!account) throw fail.unauthorized();
      const memberships = await deps.store.accounts.membershipsOf(accountId);
      return c.json(
        {
          account_id: account.id,
          email: account.email,
          name: account.name,
          organizations: memberships.map((m) => ({
            id: m.organizationId,
            name: m.organizationName,
            role: m.role,
          })),
        },
        200,
      );
    },
  );
}
