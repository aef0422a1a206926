import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { newId } from '../../domain/secrets';
import { slugify } from '../../domain/slug';
import { organizationCreationCode } from '../../domain/plan-gates';
import {
  blockerAction,
  ORGANIZATION_BLOCKERS,
  organizationBlocker,
  subscriptionLimits,
} from '../../domain/subscription';
import { requireAccount } from '../../http/account-auth';
import { fail, type ApiError } from '../../core/api-error';
import type { AppEnv } from '../../http/app-env';
import type { Deps } from '../../core/deps';
import { withIdempotency } from '../../http/idempotency';
import { jsonBody } from '../../http/json-body';
import {
  bearerOrSessionSecurity,
  ErrorEnvelopeSchema,
  errorResponses,
  jsonContent,
} from '../../http/openapi-shared';
import { strictQuery } from '../../http/strict-query';
import { gateRefusal } from '../../http/plan-gate';
import { SlugTakenError } from '../../core/store/state/slug-taken';
import { subscriptionView } from '../../views/subscription-view';

/** The same shape as an entry of `organizations` in `GET /api/account`. */
const OrganizationSchema = z
  .object({
    id: z.string().openapi({ format: 'uuid' }),
    name: z.string(),
    role: z
      .enum(['owner', 'admin', 'member'])
      .openapi({ description: "The caller's role; always `owner` for a new organization." }),
  })
  .openapi('Organization');

const blockedResponse = (description: string) => ({
  description,
  content: {
    'application/json': {
      schema: ErrorEnvelopeSchema.extend({
        organization_creation_blocker: z
          .enum(ORGANIZATION_BLOCKERS)
          .optional()
          .openapi({ description: "The readiness read's blocker, when the gate refused." }),
      }),
    },
  },
});

const createOrganization = createRoute({
  method: 'post',
  path: '/api/organizations',
  tags: ['account'],
  summary: 'Create an organization',
  description:
    "Ours (the spec has no organization-creation route; its subscription readiness gates exactly this). Allowed only when `GET /api/account/subscription` answers `organization_creation_allowed`; otherwise refused with the spec's codes, that read's `next`, its blocker in `organization_creation_blocker`, and the blocker's `next_action`: `subscription_required` blocker → `402 subscription_required` (`choose_plan`/`pricing`); `subscription_inactive` → `402 subscription_required` (`resume_subscription`/`billing`: no organization exists yet to be paused, so `423 organization_paused` does not fit; the action needs a paid plan in force); `organization_limit_exceeded` → `422 organization_limit_exceeded` with `limit: \"organizations\"` (`manage_organization_limit`/`organization`). The caller becomes the owner; the organization counts toward `limits.organizations`. Optional `Idempotency-Key`. Account bearer or browser session.",
  security: bearerOrSessionSecurity,
  request: {
    query: z.object({}).strict(),
    headers: z.object({
      'idempotency-key': z
        .string()
        .optional()
        .openapi({ description: 'Optional retry key: 1 to 128 visible ASCII characters.' }),
    }),
    body: {
      required: true,
      content: {
        'application/json': {
          schema: z.object({ name: z.string().trim().min(1).max(100) }).strict(),
        },
      },
    },
  },
  responses: {
    200: jsonContent(OrganizationSchema, 'The new organization, owned by the caller.'),
    ...errorResponses(400, 401, 409, 413, 415),
    402: blockedResponse(
      'The account is on the free plan (`choose_plan`/`pricing`), or its subscription is past due, paused or canceled (`resume_subscription`/`billing`): `subscription_required`.',
    ),
    422: blockedResponse(
      'A value is invalid (`validation_failed`), or the account owns as many organizations as its plan allows (`organization_limit_exceeded`, `limit` `organizations`, `manage_organization_limit`/`organization`).',
    ),
  },
});

/** The gate's refusal: the readiness read's own `next` and the blocker's typed action. */
async function blocked(deps: Deps, accountId: string): Promise<ApiError> {
  const subscription = await deps.store.usage.subscriptionOf(accountId);
  if (!subscription) return fail.unauthorized();
  const owned = await deps.store.usage.ownedOrganizationCount(accountId);
  const view = subscriptionView(accountId, subscription, owned, deps.now());
  const blocker = view.organization_creation_blocker ?? 'organization_limit_exceeded';
  return gateRefusal(
    organizationCreationCode[blocker],
    view.next,
    {
      organization_creation_blocker: blocker,
      ...(blocker === 'organization_limit_exceeded' ? { limit: 'organizations' } : {}),
    },
    blockerAction[blocker],
  );
}

export function registerOrganizationRoutes(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  const auth = requireAccount(deps, { session: true });

  app.openapi(
    {
      ...createOrganization,
      middleware: [auth, strictQuery(createOrganization.request.query), jsonBody()] as const,
    },
    async (c) => {
      const body = c.req.valid('json');
      const { accountId } = c.get('principal');
      const created = await withIdempotency(
        deps,
        c,
        'POST /api/organizations',
        body,
        async (remember) => {
          const subscription = await deps.store.usage.subscriptionOf(accountId);
          if (!subscription) throw fail.unauthorized();
          const owned = await deps.store.usage.ownedOrganizationCount(accountId);
          if (organizationBlocker(subscription, owned) !== null)
            throw await blocked(deps, accountId);
          const base = slugify(body.name);
          for (;;) {
            let slug = base;
            for (let n = 2; await deps.store.accounts.organizationSlugTaken(slug); n++)
              slug = `${base}-${n}`;
            const row = { id: newId(), slug, name: body.name, createdAt: deps.now() };
            const view = { id: row.id, name: row.name, role: 'owner' as const };
            let ok: boolean;
            try {
              // The limit is checked again inside the write, so concurrent creates cannot pass it.
              ok = await deps.store.accounts.createOwnedOrganization(
                row,
                accountId,
                subscriptionLimits[subscription.tier].organizations,
                remember(view),
              );
            } catch (err) {
              // A concurrent create (here or on another instance) took the slug after the check.
              if (err instanceof SlugTakenError) continue;
              throw err;
            }
            if (!ok) throw await blocked(deps, accountId);
            return view;
          }
        },
      );
      return c.json(created, 200);
    },
  );
}
