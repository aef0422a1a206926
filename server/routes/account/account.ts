import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { GATE_CODES, type GateCode } from '../../domain/plan-gates';
import { PLAN_TIERS } from '../../domain/plans';
import { SUBSCRIPTION_STATES } from '../../domain/subscription';
import { requireAccount } from '../../http/account-auth';
import { fail } from '../../core/api-error';
import type { AppEnv } from '../../http/app-env';
import type { Deps } from '../../core/deps';
import {
  bearerOrSessionSecurity,
  errorResponses,
  jsonContent,
  orNull,
} from '../../http/openapi-shared';
import { strictQuery } from '../../http/strict-query';
import { organizationPlanOf } from '../../http/plan-gate';
import { organizationPlanView } from '../../views/organization-plan-view';
import { registerAccountSubscriptionRoute } from './account-subscription';
import { registerAccountUsageRoute } from './account-usage';
import { registerAccountUsageHistoryRoute } from './account-usage-history';
import { registerToolConnectionRoutes } from './tool-connections';

const OrganizationPlanSchema = z
  .object({
    tier: z.enum(PLAN_TIERS).openapi({ description: "The owner's plan tier (an identifier)." }),
    state: z.enum(SUBSCRIPTION_STATES).openapi({ description: "The owner's subscription state." }),
    access_state: z.enum(['active', 'paused']),
    projects: z.number().int().openapi({ description: 'Projects the organization holds.' }),
    projects_per_organization: z
      .number()
      .int()
      .openapi({ description: "The owner's plan limit; 0 means none may be added." }),
    project_creation_blocker: z
      .enum(GATE_CODES as [GateCode, ...GateCode[]])
      .nullable()
      .openapi({
        description:
          'The code `POST /api/projects` answers for this organization now (402, 423 or 422), or `null` when a project may be added.',
      }),
    ingest_key_creation_blocker: z.enum(['organization_paused']).nullable().openapi({
      description:
        'The code `POST /api/projects/{project_id}/ingest-keys` answers for its projects now (423), or `null`.',
    }),
    next: z.string().openapi({ description: 'Display text; never parse it.' }),
    next_action: z.object({
      code: z.enum([
        'create_or_manage_organization',
        'choose_plan',
        'resume_subscription',
        'manage_organization_limit',
      ]),
      target: z.enum(['organization', 'pricing', 'billing']),
    }),
  })
  .openapi('OrganizationPlan', {
    description:
      "Ours. An organization follows its owner's plan (the account that pays its usage), whoever reads it: the gates of the writes in it are shown here before the write, with the same codes the write refuses with.",
  });

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
        plan: orNull(OrganizationPlanSchema).openapi({
          description:
            'Ours: the plan this organization follows and what it allows now; `null` when it has no owner.',
        }),
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
  registerToolConnectionRoutes(app, deps);
  app.openapi(
    {
      ...getAccount,
      middleware: [
        requireAccount(deps, { session: true }),
        strictQuery(getAccount.request.query),
      ] as const,
    },
    async (c) => {
      const { accountId } = c.get('principal');
      const account = await deps.store.accounts.byId(accountId);
      if (!account) throw fail.unauthorized();
      const memberships = await deps.store.accounts.membershipsOf(accountId);
      const organizations = await Promise.all(
        memberships.map(async (m) => ({
          id: m.organizationId,
          name: m.organizationName,
          role: m.role,
          plan: organizationPlanView(await organizationPlanOf(deps, m.organizationId)),
        })),
      );
      return c.json(
        { account_id: account.id, email: account.email, name: account.name, organizations },
        200,
      );
    },
  );
}
