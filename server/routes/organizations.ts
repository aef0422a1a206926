import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { newId } from '../domain/secrets';
import { slugify } from '../domain/slug';
import { blockerAction, organizationBlocker, subscriptionLimits } from '../domain/subscription';
import { requireAccount } from '../http/account-auth';
import { ApiError, fail } from '../http/api-error';
import type { AppEnv, Deps } from '../http/app-env';
import { withIdempotency } from '../http/idempotency';
import { jsonBody } from '../http/json-body';
import { bearerOrSessionSecurity, errorResponses, jsonContent } from '../http/openapi-shared';
import { SlugTakenError } from '../store/slug-taken';
import { subscriptionView } from '../views/subscription-view';

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

const createOrganization = createRoute({
  method: 'post',
  path: '/api/organizations',
  tags: ['account'],
  summary: 'Create an organization',
  description:
    "Ours (the spec has no organization-creation route; its subscription readiness gates exactly this). Allowed only when `GET /api/account/subscription` answers `organization_creation_allowed`; otherwise `403 organization_creation_blocked` with that read's `next`, its blocker in `organization_creation_blocker`, and the blocker's `next_action` (`choose_plan`/`pricing`, `resume_subscription`/`billing`, `manage_organization_limit`/`organization`). The caller becomes the owner; the organization counts toward `limits.organizations`. Optional `Idempotency-Key`. Account bearer or browser session.",
  security: bearerOrSessionSecurity,
  request: {
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
    403: {
      description:
        'Organization creation is blocked by the subscription (`organization_creation_blocked`).',
      content: {
        'application/json': {
          schema: z
            .object({
              error: z.string(),
              code: z.literal('organization_creation_blocked'),
              next: z.string().openapi({ description: 'Display text; never parse it.' }),
              next_action: z.object({
                code: z.enum(['choose_plan', 'resume_subscription', 'manage_organization_limit']),
                target: z.enum(['pricing', 'billing', 'organization']),
              }),
              organization_creation_blocker: z.enum([
                'subscription_required',
                'subscription_inactive',
                'organization_limit_exceeded',
              ]),
            })
            .openapi('OrganizationCreationBlocked'),
        },
      },
    },
    ...errorResponses(400, 401, 409, 413, 415, 422),
  },
});

/** The gate's refusal: the readiness read's own `next` and the blocker's typed action. */
async function blocked(deps: Deps, accountId: string): Promise<ApiError> {
  const subscription = await deps.store.usage.subscriptionOf(accountId);
  if (!subscription) return fail.unauthorized();
  const owned = await deps.store.usage.ownedOrganizationCount(accountId);
  const view = subscriptionView(accountId, subscription, owned, deps.now());
  const blocker = view.organization_creation_blocker ?? 'organization_limit_exceeded';
  return new ApiError({
    status: 403,
    code: 'organization_creation_blocked',
    error: 'this account cannot create an organization now',
    next: view.next,
    nextAction: { ...blockerAction[blocker] },
    extra: { organization_creation_blocker: blocker },
  });
}

export function registerOrganizationRoutes(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  const auth = requireAccount(deps, { session: true });

  app.openapi({ ...createOrganization, middleware: [auth, jsonBody()] as const }, async (c) => {
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
        if (organizationBlocker(subscription, owned) !== null) throw await blocked(deps, accountId);
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
  });
}
