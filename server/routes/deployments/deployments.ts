import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { isDeploymentId } from '../../domain/deployment-id';
import { canRecordDeployments } from '../../domain/manage-telemetry';
import {
  DEPLOYMENT_CURSOR_FIELDS,
  parseDeploymentCursor,
  parseDeploymentRange,
} from '../../domain/read-rules/deployment-query';
import { parseLimitInRange } from '../../domain/read-rules/limit';
import { parseProjectScope } from '../../domain/read-rules/project-scope';
import { invalid } from '../../domain/read-rules/read-rule-error';
import { parseRfc3339 } from '../../domain/read-rules/time-range';
import { isUuid } from '../../domain/read-rules/uuid';
import { requireAccount } from '../../http/account-auth';
import { ApiError, fail } from '../../core/api-error';
import type { AppEnv } from '../../http/app-env';
import type { Deps } from '../../core/deps';
import { jsonBody } from '../../http/json-body';
import { bearerSecurity, errorResponses, jsonContent } from '../../http/openapi-shared';
import { projectsInScope } from '../../http/readable-projects';
import {
  DEPLOYMENT_ID_FACETS,
  TIMESTAMP_FACETS,
  UUID_FACETS,
  integerFacets,
  key,
  requiredKey,
} from '../../http/query-keys';
import { readQuery } from '../../http/read-query';
import { strictQuery } from '../../http/strict-query';
import type { DeploymentRecord, DeploymentStatus } from '../../core/store/state/deployments';
import { iso } from '../../views/telemetry-views';
import {
  DEPLOYMENT_ID_DESCRIPTION,
  DeploymentPageSchema,
  DeploymentRequestSchema,
  DeploymentSchema,
} from './deployment-schema';

export const DEPLOYMENT_LIMIT_DEFAULT = 50;
export const DEPLOYMENT_LIMIT_MAX = 100;

const DeploymentIdParam = z.string().openapi({
  param: { name: 'deployment_id', in: 'path' },
  description: DEPLOYMENT_ID_DESCRIPTION,
  example: 'checkout-api-production-2.14.1-1',
});

const DetailQuery = readQuery(
  { project_id: requiredKey('Required: the project (UUID).', UUID_FACETS) },
  (q) => {
    if (!isUuid(q.project_id)) throw invalid('project_id must be a UUID');
    return { projectId: q.project_id.toLowerCase() };
  },
);

const ListQuery = readQuery(
  {
    project_id: key(
      'One project (UUID); without it, every readable project. An unreadable project gives an empty page.',
      UUID_FACETS,
    ),
    status: z.enum(['succeeded', 'failed']).optional(),
    since: key('RFC3339 only; inclusive; compared with `finished_at`.', TIMESTAMP_FACETS),
    until: key(
      'RFC3339 only; inclusive; compared with `finished_at`; not earlier than `since`.',
      TIMESTAMP_FACETS,
    ),
    limit: key(
      `1 to ${DEPLOYMENT_LIMIT_MAX} (default ${DEPLOYMENT_LIMIT_DEFAULT}); anything else gives \`422\`.`,
      integerFacets({
        minimum: 1,
        maximum: DEPLOYMENT_LIMIT_MAX,
        default: DEPLOYMENT_LIMIT_DEFAULT,
        digits: 6,
      }),
    ),
    cursor_time: key('`next_cursor.time` of the previous page.', TIMESTAMP_FACETS),
    cursor_project_id: key('`next_cursor.project_id` of the previous page.', UUID_FACETS),
    cursor_deployment_id: key(
      '`next_cursor.deployment_id` of the previous page.',
      DEPLOYMENT_ID_FACETS,
    ),
  },
  (q) => {
    const scope = parseProjectScope({ project_id: q.project_id });
    const status: DeploymentStatus | null = q.status ?? null;
    const range = parseDeploymentRange(q);
    const limit = parseLimitInRange(q.limit, {
      fallback: DEPLOYMENT_LIMIT_DEFAULT,
      max: DEPLOYMENT_LIMIT_MAX,
    });
    const after = parseDeploymentCursor(q);
    return { scope, status, since: range.since, until: range.until, limit, after };
  },
);

const putDeployment = createRoute({
  method: 'put',
  path: '/api/telemetry/deployments/{deployment_id}',
  tags: ['deployments'],
  summary: 'Record a deployment (idempotent by id)',
  description: [
    'Stores the deployment under its caller-chosen `deployment_id` in `project_id`.',
    '`200` with the stored deployment, both when this request stored it and for a retry with the same id and the same body (the spec states no other success status; `created_at` tells when it was stored); the same id with a different body is `409 idempotency_conflict` and changes nothing.',
    'Bodies are the same when every field is (times compared as instants, `commit_sha` case-insensitively, a missing one differs from a sent one).',
    'Checks run in this order: path (`400`), body (`422`), readable project (`404`), owner role in the project organization (`403`), then the stored deployment (`409`).',
  ].join(' '),
  security: bearerSecurity,
  request: {
    params: z.object({ deployment_id: DeploymentIdParam }),
    query: z.object({}).strict(),
    body: { required: true, content: { 'application/json': { schema: DeploymentRequestSchema } } },
  },
  responses: {
    200: jsonContent(
      DeploymentSchema,
      'The deployment stored under this id, by this request or by an earlier one with the same body.',
    ),
    ...errorResponses(400, 401, 403, 404, 409, 413, 415, 422),
  },
});

const getDeployment = createRoute({
  method: 'get',
  path: '/api/telemetry/deployments/{deployment_id}',
  tags: ['deployments'],
  summary: 'One deployment',
  description:
    '`project_id` is required. An unknown id and one of an unreadable project are both `404`.',
  security: bearerSecurity,
  request: { params: z.object({ deployment_id: DeploymentIdParam }), query: DetailQuery },
  responses: {
    200: jsonContent(DeploymentSchema, 'The deployment.'),
    ...errorResponses(400, 401, 404, 422),
  },
});

const listDeployments = createRoute({
  method: 'get',
  path: '/api/telemetry/deployments',
  tags: ['deployments'],
  summary: 'Deployments, latest finish first',
  description:
    'Always a page `{deployments, next_cursor}`, ordered by `finished_at`, then `project_id`, then `deployment_id`, all descending. ' +
    `Continue with \`${DEPLOYMENT_CURSOR_FIELDS.join('`, `')}\` from \`next_cursor\` (all three together), repeating the filters; stop when it is \`null\`.`,
  security: bearerSecurity,
  request: { query: ListQuery },
  responses: {
    200: jsonContent(DeploymentPageSchema, 'A page of deployments.'),
    ...errorResponses(401, 422),
  },
});

function readDeploymentId(value: string | undefined): string {
  if (value === undefined || !isDeploymentId(value))
    throw new ApiError({
      status: 400,
      code: 'invalid_path',
      error: 'path value deployment_id is not a deployment id',
      next: 'Use 1 to 128 letters, digits, ".", "_", "~" or "-" (starting with a letter or digit) as the deployment_id path segment.',
      nextAction: { code: 'fix_request', target: 'request' },
    });
  return value;
}

export function deploymentView(d: DeploymentRecord) {
  return {
    deployment_id: d.deploymentId,
    project_id: d.projectId,
    release: d.release,
    environment: d.environment,
    service_name: d.serviceName,
    status: d.status,
    started_at: iso(d.startedAt),
    finished_at: iso(d.finishedAt),
    commit_sha: d.commitSha,
    created_at: iso(d.createdAt),
  };
}

/** Whether a retry carries the deployment that is stored (everything but the stored-at time). */
const sameDeployment = (a: DeploymentRecord, b: DeploymentRecord) =>
  a.release === b.release &&
  a.environment === b.environment &&
  a.serviceName === b.serviceName &&
  a.status === b.status &&
  a.startedAt === b.startedAt &&
  a.finishedAt === b.finishedAt &&
  a.commitSha === b.commitSha;

export function registerDeploymentRoutes(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  const auth = requireAccount(deps, { session: false });

  app.openapi(
    {
      ...putDeployment,
      middleware: [auth, strictQuery(putDeployment.request.query), jsonBody()] as const,
    },
    async (c) => {
      const deploymentId = readDeploymentId(c.req.param('deployment_id'));
      const body = c.req.valid('json');
      const startedAt = parseRfc3339(body.started_at) ?? 0;
      const finishedAt = parseRfc3339(body.finished_at) ?? 0;
      if (finishedAt < startedAt)
        throw fail.validation('finished_at must not be earlier than started_at');
      const projectId = body.project_id.toLowerCase();
      const { accountId } = c.get('principal');
      const project = await deps.store.projects.readable(accountId, projectId);
      if (!project) throw fail.notFound('project not found');
      if (!canRecordDeployments(project.role))
        throw fail.forbidden('only an owner of the project organization can record deployments');
      const record: DeploymentRecord = {
        projectId,
        deploymentId,
        release: body.release,
        environment: body.environment,
        serviceName: body.service_name,
        status: body.status,
        startedAt,
        finishedAt,
        commitSha: body.commit_sha?.toLowerCase() ?? null,
        createdAt: deps.now(),
      };
      const { stored, created } = await deps.store.deployments.put(record, accountId);
      if (created) return c.json(deploymentView(stored), 200);
      if (!sameDeployment(stored, record))
        throw fail.idempotencyConflict(
          'this deployment_id already holds a different deployment',
          'Retry the original request unchanged, or record new work under a new deployment_id.',
        );
      return c.json(deploymentView(stored), 200);
    },
  );

  // The path's deployment id is read before the query's values, as it always was.
  const deploymentPath: MiddlewareHandler<AppEnv> = async (c, next) => {
    readDeploymentId(c.req.param('deployment_id'));
    await next();
  };

  app.openapi(
    { ...getDeployment, middleware: [auth, strictQuery(DetailQuery), deploymentPath] as const },
    async (c) => {
      const deploymentId = readDeploymentId(c.req.param('deployment_id'));
      const { projectId } = c.req.valid('query');
      const project = await deps.store.projects.readable(c.get('principal').accountId, projectId);
      const found = project ? await deps.store.deployments.get(projectId, deploymentId) : null;
      if (!found) throw fail.notFound('deployment not found');
      return c.json(deploymentView(found), 200);
    },
  );

  app.openapi(
    { ...listDeployments, middleware: [auth, strictQuery(ListQuery)] as const },
    async (c) => {
      const { scope, limit, ...filters } = c.req.valid('query');
      const projectIds = await projectsInScope(deps, c.get('principal').accountId, scope);
      const rows = await deps.store.deployments.list({ projectIds, ...filters, limit: limit + 1 });
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      const next_cursor =
        rows.length > limit && last
          ? {
              time: iso(last.finishedAt),
              project_id: last.projectId,
              deployment_id: last.deploymentId,
            }
          : null;
      return c.json({ deployments: page.map(deploymentView), next_cursor }, 200);
    },
  );
}
