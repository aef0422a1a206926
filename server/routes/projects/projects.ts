import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import {
  ingestKeyBlocker,
  organizationNext,
  projectBlocker,
  type OrganizationPlan,
} from '../../domain/plan-gates';
import { hashToken, newId, newToken } from '../../domain/secrets';
import { subscriptionLimits } from '../../domain/subscription';
import { slugify } from '../../domain/slug';
import { requireAccount } from '../../http/account-auth';
import { fail } from '../../core/api-error';
import type { AppEnv } from '../../http/app-env';
import type { Deps } from '../../core/deps';
import { withIdempotency } from '../../http/idempotency';
import { jsonBody } from '../../http/json-body';
import {
  bearerSecurity,
  ErrorEnvelopeSchema,
  errorResponses,
  jsonContent,
} from '../../http/openapi-shared';
import { strictQuery } from '../../http/strict-query';
import { readPathUuid } from '../../http/path-params';
import { gateRefusal, organizationPlanOf } from '../../http/plan-gate';
import type { ReadableProject } from '../../core/store/state/projects';
import { SlugTakenError } from '../../core/store/state/slug-taken';

const ProjectSchema = z
  .object({
    id: z.string().openapi({ format: 'uuid' }),
    organization_id: z.string().openapi({ format: 'uuid' }),
    name: z.string(),
    slug: z.string(),
    role: z
      .enum(['owner', 'admin', 'member'])
      .openapi({ description: "The caller's role in the project's organization." }),
    created_at: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('Project');

const IngestKeySchema = z
  .object({
    id: z.string().openapi({ format: 'uuid' }),
    project_id: z.string().openapi({ format: 'uuid' }),
    name: z.string(),
    key: z.string().openapi({
      description:
        'The ingest bearer token. Shown only in this response (and its idempotent replays).',
    }),
    key_prefix: z.string(),
    created_at: z.string().openapi({ format: 'date-time' }),
    expires_at: z.string().nullable(),
  })
  .openapi('IngestKey');

const IdempotencyHeader = z.object({
  'idempotency-key': z
    .string()
    .optional()
    .openapi({ description: 'Optional retry key: 1 to 128 visible ASCII characters.' }),
});

const gateResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: ErrorEnvelopeSchema } },
});

const GATE_DOC =
  "Subscription gate (spec: Subscription readiness, Limits, Errors): an organization follows its owner's plan, the account that pays its usage, whoever the caller is (an admin on the free plan may add a project to a paid organization; an owner on the free plan may not add one to their own). `GET /api/account` shows each organization's gate (`plan`) before the write.";

const listProjects = createRoute({
  method: 'get',
  path: '/api/projects',
  tags: ['projects'],
  summary: 'Projects the account can read',
  security: bearerSecurity,
  request: { query: z.object({}).strict() },
  responses: {
    200: jsonContent(z.array(ProjectSchema), 'Every readable project, by name.'),
    ...errorResponses(401, 422),
  },
});

const createProject = createRoute({
  method: 'post',
  path: '/api/projects',
  tags: ['projects'],
  summary: 'Create a project',
  description: `Creates a project in one of the caller's organizations (owner or admin role). \`organization_id\` may be omitted when the caller belongs to exactly one organization. Optional \`Idempotency-Key\`. ${GATE_DOC} Refusals, checked in this order: an owner on the free plan (\`projects_per_organization\` 0) is \`402 subscription_required\` (\`choose_plan\`/\`pricing\`); an owner whose subscription is past_due, paused or canceled (\`access_state\` paused) is \`423 organization_paused\` (\`resume_subscription\`/\`billing\`); an organization holding \`projects_per_organization\` projects is \`422 organization_limit_exceeded\` with \`limit: "projects_per_organization"\` (\`manage_organization_limit\`/\`organization\`). The spec has no project-limit code; \`organization_limit_exceeded\` is the code of a limit of the organization's plan, and \`limit\` names which. The limit is checked again in the write's transaction, so concurrent creates cannot pass it.`,
  security: bearerSecurity,
  request: {
    query: z.object({}).strict(),
    headers: IdempotencyHeader,
    body: {
      required: true,
      content: {
        'application/json': {
          schema: z.object({
            name: z.string().trim().min(1).max(100),
            organization_id: z.uuid().optional(),
          }),
        },
      },
    },
  },
  responses: {
    200: jsonContent(ProjectSchema, 'The new project.'),
    ...errorResponses(400, 401, 403, 409, 413, 415),
    402: gateResponse("The organization's owner is on the free plan (`subscription_required`)."),
    422: gateResponse(
      'A value is invalid (`validation_failed`), or the organization holds as many projects as its plan allows (`organization_limit_exceeded`, `limit` `projects_per_organization`).',
    ),
    423: gateResponse(
      "The owner's subscription is past due, paused or canceled (`organization_paused`).",
    ),
  },
});

const createIngestKey = createRoute({
  method: 'post',
  path: '/api/projects/{project_id}/ingest-keys',
  tags: ['projects'],
  summary: 'Create an ingest key for a project',
  description: `Owner or admin of the project organization. The key is stored hashed; its value is returned once. Optional \`Idempotency-Key\`: a replay returns the same key. ${GATE_DOC} Keys count toward no limit, so the free plan may create them for existing projects (their telemetry is received within the free allowances); an owner whose subscription is past_due, paused or canceled makes it \`423 organization_paused\` (\`resume_subscription\`/\`billing\`).`,
  security: bearerSecurity,
  request: {
    query: z.object({}).strict(),
    params: z.object({
      project_id: z.string().openapi({ param: { name: 'project_id', in: 'path' }, format: 'uuid' }),
    }),
    headers: IdempotencyHeader,
    body: {
      required: true,
      content: {
        'application/json': {
          schema: z.object({
            name: z.string().trim().min(1).max(100).optional(),
            expires_at: z.iso
              .datetime({ offset: false })
              .optional()
              .openapi({ description: 'RFC3339 UTC; omit for no expiry.' }),
          }),
        },
      },
    },
  },
  responses: {
    200: jsonContent(IngestKeySchema, 'The new ingest key, with its value.'),
    ...errorResponses(400, 401, 403, 404, 409, 413, 415, 422),
    423: gateResponse(
      "The owner's subscription is past due, paused or canceled (`organization_paused`).",
    ),
  },
});

export const projectView = (p: ReadableProject) => ({
  id: p.id,
  organization_id: p.organizationId,
  name: p.name,
  slug: p.slug,
  role: p.role,
  created_at: new Date(p.createdAt).toISOString(),
});

/** Why a project cannot be added to the organization, in the spec's envelope. */
function projectRefusal(plan: OrganizationPlan | null) {
  const blocker = projectBlocker(plan) ?? 'organization_limit_exceeded';
  return gateRefusal(
    blocker,
    organizationNext(plan),
    blocker === 'organization_limit_exceeded' ? { limit: 'projects_per_organization' } : {},
  );
}

export function registerProjectRoutes(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  const auth = requireAccount(deps, { session: false });

  app.openapi(
    { ...listProjects, middleware: [auth, strictQuery(listProjects.request.query)] as const },
    async (c) => {
      const projects = await deps.store.projects.readableBy(c.get('principal').accountId);
      return c.json(projects.map(projectView), 200);
    },
  );

  app.openapi(
    {
      ...createProject,
      middleware: [auth, strictQuery(createProject.request.query), jsonBody()] as const,
    },
    async (c) => {
      const body = c.req.valid('json');
      const { accountId } = c.get('principal');
      const created = await withIdempotency(
        deps,
        c,
        'POST /api/projects',
        body,
        async (remember) => {
          const memberships = await deps.store.accounts.membershipsOf(accountId);
          let orgId = body.organization_id;
          if (!orgId) {
            if (memberships.length !== 1) {
              throw fail.validation(
                'organization_id is required when the account belongs to several organizations',
                'Send organization_id of the organization that should own the project.',
              );
            }
            orgId = memberships[0]?.organizationId;
          }
          const membership = memberships.find((m) => m.organizationId === orgId);
          if (!membership) throw fail.notFound('organization not found');
          if (membership.role === 'member')
            throw fail.forbidden('only owners and admins can create projects');
          const plan = await organizationPlanOf(deps, membership.organizationId);
          const blocker = projectBlocker(plan);
          if (blocker !== null || plan === null) throw projectRefusal(plan);
          const limit = subscriptionLimits[plan.subscription.tier].projects_per_organization;
          const base = slugify(body.name);
          for (;;) {
            let slug = base;
            for (
              let n = 2;
              await deps.store.projects.slugTaken(membership.organizationId, slug);
              n++
            )
              slug = `${base}-${n}`;
            const row = {
              id: newId(),
              organizationId: membership.organizationId,
              name: body.name,
              slug,
              createdAt: deps.now(),
            };
            const view = projectView({ ...row, role: membership.role });
            let created: boolean;
            try {
              created = await deps.store.projects.createWithinLimit(row, limit, remember(view));
            } catch (err) {
              // A concurrent create (here or on another instance) took the slug after the check.
              if (!(err instanceof SlugTakenError)) throw err;
              continue;
            }
            // Another create filled the organization between the check and the write.
            if (!created) throw projectRefusal(await organizationPlanOf(deps, row.organizationId));
            return view;
          }
        },
      );
      return c.json(created, 200);
    },
  );

  app.openapi(
    {
      ...createIngestKey,
      middleware: [auth, strictQuery(createIngestKey.request.query), jsonBody()] as const,
    },
    async (c) => {
      const projectId = readPathUuid(c.req.param('project_id'), 'project_id');
      const body = c.req.valid('json');
      const { accountId } = c.get('principal');
      const created = await withIdempotency(
        deps,
        c,
        `POST /api/projects/${projectId}/ingest-keys`,
        body,
        async (remember) => {
          const project = await deps.store.projects.readable(accountId, projectId);
          if (!project) throw fail.notFound('project not found');
          if (project.role === 'member')
            throw fail.forbidden('only owners and admins can create ingest keys');
          const plan = await organizationPlanOf(deps, project.organizationId);
          const blocker = ingestKeyBlocker(plan);
          if (blocker !== null) throw gateRefusal(blocker, organizationNext(plan));
          const key = newToken('ingest');
          const now = deps.now();
          const expiresAt = body.expires_at ? Date.parse(body.expires_at) : null;
          if (expiresAt !== null && expiresAt <= now) {
            throw fail.validation(
              'expires_at must be in the future',
              'Send a future RFC3339 UTC time, or omit expires_at.',
            );
          }
          const row = {
            id: newId(),
            projectId,
            name: body.name ?? 'Ingest key',
            keyPrefix: key.slice(0, 12),
            createdAt: now,
            expiresAt,
            revokedAt: null,
          };
          const view = {
            id: row.id,
            project_id: projectId,
            name: row.name,
            key,
            key_prefix: row.keyPrefix,
            created_at: new Date(now).toISOString(),
            expires_at: expiresAt === null ? null : new Date(expiresAt).toISOString(),
          };
          await deps.store.projects.createIngestKey(
            { ...row, keyHash: hashToken(key) },
            remember(view),
          );
          return view;
        },
      );
      return c.json(created, 200);
    },
  );
}
