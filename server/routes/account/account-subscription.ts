import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { PLAN_TIERS } from '../../domain/plans';
import {
  BILLING_INTERVALS,
  ORGANIZATION_BLOCKERS,
  SUBSCRIPTION_STATES,
} from '../../domain/subscription';
import { requireAccount } from '../../http/account-auth';
import { fail } from '../../core/api-error';
import type { AppEnv } from '../../http/app-env';
import type { Deps } from '../../core/deps';
import { bearerOrSessionSecurity, errorResponses, jsonContent } from '../../http/openapi-shared';
import { strictQuery } from '../../http/strict-query';
import { subscriptionView } from '../../views/subscription-view';

const nullableTime = z.string().nullable().openapi({ format: 'date-time' });

const SubscriptionSchema = z
  .object({
    account_id: z.string().openapi({ format: 'uuid' }),
    tier: z.enum(PLAN_TIERS).openapi({ description: 'An identifier, not a display name.' }),
    billing_interval: z.enum(BILLING_INTERVALS),
    state: z.enum(SUBSCRIPTION_STATES),
    access_state: z.enum(['active', 'paused']).openapi({
      description:
        '`active` for free, trialing and active; `paused` for past_due, paused, canceled.',
    }),
    current_period_start: nullableTime,
    current_period_end: nullableTime,
    renews_at: nullableTime,
    cancels_at: nullableTime,
    organization_creation_allowed: z.boolean().openapi({
      description: 'Check it before enabling organization creation; a paid plan can be blocked.',
    }),
    organization_creation_blocker: z.enum(ORGANIZATION_BLOCKERS).nullable(),
    limits: z.object({
      organizations: z.number().int(),
      members_per_organization: z.number().int(),
      projects_per_organization: z.number().int(),
      invitations_per_day: z.number().int(),
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
  .openapi('SubscriptionReadiness');

const getSubscription = createRoute({
  method: 'get',
  path: '/api/account/subscription',
  tags: ['account'],
  summary: 'Plan and whether the account can create an organization',
  description:
    'Read-only. A free account answers tier `free`, billing_interval `none`, state `free`, access_state `active`, null period times, organization creation not allowed (`subscription_required`) and every limit 0. No query keys. Account bearer or browser session.',
  security: bearerOrSessionSecurity,
  request: { query: z.object({}).strict() },
  responses: {
    200: jsonContent(SubscriptionSchema, 'Subscription readiness.'),
    ...errorResponses(401, 422),
  },
});

export function registerAccountSubscriptionRoute(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  app.openapi(
    {
      ...getSubscription,
      middleware: [
        requireAccount(deps, { session: true }),
        strictQuery(getSubscription.request.query),
      ] as const,
    },
    async (c) => {
      const { accountId } = c.get('principal');
      const subscription = await deps.store.usage.subscriptionOf(accountId);
      if (!subscription) throw fail.unauthorized();
      const owned = await deps.store.usage.ownedOrganizationCount(accountId);
      return c.json(subscriptionView(accountId, subscription, owned, deps.now()), 200);
    },
  );
}
