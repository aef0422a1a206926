import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { parseResponseVersion } from '../../domain/issue-triage';
import { invalid } from '../../domain/read-rules/read-rule-error';
import { isUuid } from '../../domain/read-rules/uuid';
import { requireAccount } from '../../http/account-auth';
import { fail } from '../../core/api-error';
import type { AppEnv } from '../../http/app-env';
import type { Deps } from '../../core/deps';
import { bearerSecurity, errorResponses, jsonContent } from '../../http/openapi-shared';
import { UUID_FACETS, requiredKey } from '../../http/query-keys';
import { readQuery } from '../../http/read-query';
import { strictQuery } from '../../http/strict-query';
import { teamView, userView } from '../../views/issue-views';
import { fixedPathMethods } from './issue-access';
import { TeamRefSchema, UserRefSchema } from './issue-schema';

const AssigneesQuery = readQuery(
  {
    project_id: requiredKey('Required: one project.', UUID_FACETS),
    response_version: z.enum(['1', '2']).optional().openapi({
      description: '1 (default): accounts only; 2 adds `teams`. Other values give `422`.',
    }),
  },
  (q) => {
    if (!isUuid(q.project_id)) throw invalid('project_id must be a UUID');
    return {
      projectId: q.project_id.toLowerCase(),
      version: parseResponseVersion(q.response_version, [1, 2] as const, 1),
    };
  },
);

const AssigneesSchema = z
  .object({
    project_id: z.string().openapi({ format: 'uuid' }),
    assignees: z.array(UserRefSchema),
    teams: z
      .array(TeamRefSchema)
      .optional()
      .openapi({ description: 'Version 2: every team of the project organization.' }),
  })
  .openapi('IssueAssignees');

const listAssignees = createRoute({
  method: 'get',
  path: '/api/telemetry/issues/assignees',
  tags: ['issues'],
  summary: 'Who issues of a project can be assigned to',
  description:
    'Every account that can read the project (the members of its organization), by name then email (accounts without a name last); with `response_version=2` also every team of the organization, by name. Any account that can read the project may call it; otherwise `404`.',
  security: bearerSecurity,
  request: { query: AssigneesQuery },
  responses: {
    200: jsonContent(AssigneesSchema, 'Accounts (and teams) of the project.'),
    ...errorResponses(401, 404, 422),
  },
});

export function registerIssueAssigneesRoute(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  app.openapi(
    {
      ...listAssignees,
      middleware: [requireAccount(deps, { session: false }), strictQuery(AssigneesQuery)] as const,
    },
    async (c) => {
      const { projectId, version } = c.req.valid('query');
      const project = await deps.store.projects.readable(c.get('principal').accountId, projectId);
      if (!project) throw fail.notFound('project not found');
      const assignees = (await deps.store.issues.readersOf(project.id)).map(userView);
      if (version === 1) return c.json({ project_id: project.id, assignees }, 200);
      const teams = (await deps.store.issues.teamsOf(project.organizationId)).map(teamView);
      return c.json({ project_id: project.id, assignees, teams }, 200);
    },
  );
  fixedPathMethods(app, '/api/telemetry/issues/assignees', ['GET']);
}
