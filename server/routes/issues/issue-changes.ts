import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import {
  ISSUE_STATUS_INPUTS,
  ISSUE_VERSIONS,
  PRIORITIES,
  normalizeIssueStatus,
  parseAssigneeInput,
  parseResponseVersion,
  type IssueStatusInput,
  type Priority,
} from '../../domain/issue-triage';
import { SEVERITIES } from '../../domain/severity';
import { requireAccount } from '../../http/account-auth';
import { fail } from '../../core/api-error';
import type { AppEnv } from '../../http/app-env';
import type { Deps } from '../../core/deps';
import { jsonBody } from '../../http/json-body';
import { UuidParam, bearerSecurity, errorResponses, jsonContent } from '../../http/openapi-shared';
import { readQuery } from '../../http/read-query';
import { strictQuery } from '../../http/strict-query';
import type { ReadableProject } from '../../core/store/state/projects';
import type { IssueChange } from '../../core/store/state/issues';
import { issueView, issueViewV3, issueViewV4 } from '../../views/issue-views';
import {
  ISSUE_NOT_FOUND,
  assigneeTarget,
  fixedPathMethods,
  readableIssue,
  requireManage,
} from './issue-access';
import { IssueSchema, IssueV3Schema, IssueV4Schema } from './issue-schema';

export const BULK_MAX = 100;
const UUID_PATTERN = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
const uuidString = (description?: string) =>
  z
    .string()
    .regex(new RegExp(`^${UUID_PATTERN}$`), 'must be a UUID')
    .openapi({ format: 'uuid', ...(description ? { description } : {}) });

const MANAGE =
  'Needs permission to manage issues in the project: the owner or admin role in its organization (`403 forbidden` otherwise).';
const UNCHANGED =
  'A field already holding the requested value is not changed: an issue where nothing changes is `unchanged` and records no activity. Status changes never touch occurrences, `first_seen_at`, `last_seen_at`, `severity` or severity rules. Setting `priority` makes it manual (fixed) even when it equals the derived one.';

const changeFields = {
  status: z.enum(ISSUE_STATUS_INPUTS).optional().openapi({
    description: '`unresolved`, `resolved` or `archived` (`ignored` is accepted as its old name).',
  }),
  priority: z
    .enum(PRIORITIES)
    .optional()
    .openapi({ description: 'Sets a manual priority; it then stays fixed.' }),
  assignee: z
    .string()
    .regex(new RegExp(`^(?:me|none|team:${UUID_PATTERN}|${UUID_PATTERN})$`), {
      message: 'assignee must be a user id, me, team:<team_id> or none',
    })
    .optional()
    .openapi({
      description:
        'A user id, `me`, `team:<team_id>`, or `none` to remove. The account must be able to read the project and the team must belong to its organization, otherwise `422` and nothing changes.',
    }),
};

type ChangeBody = { status?: IssueStatusInput; priority?: Priority; assignee?: string };
const hasChange = (b: ChangeBody) =>
  b.status !== undefined || b.priority !== undefined || b.assignee !== undefined;
const NO_CHANGE = { message: 'send at least one of status, priority, assignee' };

/** 1 to 100 distinct issue UUIDs (the bulk body's `issue_ids`; the histogram query's too). */
export const IssueIdsSchema = z
  .array(uuidString())
  .min(1)
  .max(BULK_MAX)
  .refine((ids) => new Set(ids.map((id) => id.toLowerCase())).size === ids.length, {
    message: 'issue_ids must not repeat an id',
  });

const IssuePatchBody = z
  .object(changeFields)
  .strict()
  .refine(hasChange, NO_CHANGE)
  .openapi('IssueChange');

const BulkBody = z
  .object({
    project_id: uuidString('The project every issue belongs to.'),
    issue_ids: IssueIdsSchema.openapi({ description: `1 to ${BULK_MAX} distinct issue UUIDs.` }),
    ...changeFields,
    response_version: z
      .union([z.literal(1), z.literal(2)])
      .optional()
      .openapi({ description: '2 gives version 4 issues; 1 or absent, version 3.' }),
  })
  .strict()
  .refine(hasChange, NO_CHANGE)
  .openapi('IssueBulkChange');

const versionQuery = readQuery(
  {
    response_version: z.enum(['1', '2', '3', '4']).optional().openapi({
      description:
        'Response version of the returned issue: 1 (default) to 4; use 4 for `archived`, priority and assignee with its type.',
    }),
  },
  (q) => parseResponseVersion(q.response_version, ISSUE_VERSIONS, 1),
);

const issueParams = z.object({ issue_id: UuidParam('issue_id') });

const patchIssue = createRoute({
  method: 'patch',
  path: '/api/telemetry/issues/{issue_id}',
  tags: ['issues'],
  summary: 'Change the status, priority or assignee of an issue',
  description: `Body: at least one of \`status\`, \`priority\`, \`assignee\`. Returns the updated issue in the requested version (no success flag). ${UNCHANGED} ${MANAGE}`,
  security: bearerSecurity,
  request: {
    params: issueParams,
    query: versionQuery,
    body: { required: true, content: { 'application/json': { schema: IssuePatchBody } } },
  },
  responses: {
    200: jsonContent(IssueSchema, 'The updated issue.'),
    ...errorResponses(400, 401, 403, 404, 413, 415, 422),
  },
});

const BulkResultSchema = z
  .object({
    project_id: z.string().openapi({ format: 'uuid' }),
    results: z.array(
      z.object({
        issue_id: z.string().openapi({ format: 'uuid' }),
        outcome: z.enum(['updated', 'unchanged', 'not_found']),
        issue: z
          .union([IssueV3Schema, IssueV4Schema])
          .nullable()
          .openapi({ description: 'Null for `not_found`.' }),
      }),
    ),
  })
  .openapi('IssueBulkResult');

const bulkChange = createRoute({
  method: 'post',
  path: '/api/telemetry/issues/bulk',
  tags: ['issues'],
  summary: 'Apply one change to up to 100 issues of a project',
  description: `The same change applies to every issue; one result per id, in request order: \`updated\`, \`unchanged\` or \`not_found\` (an id that is not an issue of the project; its \`issue\` is null). An empty list, more than ${BULK_MAX} ids or a repeated id gives \`422\`; an unreadable project \`404\`. ${UNCHANGED} ${MANAGE}`,
  security: bearerSecurity,
  request: {
    query: z.object({}).strict(),
    body: { required: true, content: { 'application/json': { schema: BulkBody } } },
  },
  responses: {
    200: jsonContent(BulkResultSchema, 'Per-id outcomes.'),
    ...errorResponses(401, 403, 404, 413, 415, 422),
  },
});

const RULE_SEVERITIES = [...SEVERITIES, 'source'] as const;

const IssueTriageRuleBody = z
  .object({
    severity: z.enum(RULE_SEVERITIES).openapi({
      description:
        'Severity shown for the issue (`triage.effective_severity`); `source` removes the override and shows the captured severity.',
    }),
  })
  .strict()
  .openapi('IssueTriageRule');

const putTriageRule = createRoute({
  method: 'put',
  path: '/api/telemetry/issues/{issue_id}/triage-rule',
  tags: ['issues'],
  summary: 'Set the severity rule of an issue',
  description: `The rule is keyed on the issue's project and grouping key (\`fingerprint\`), so it applies to every current and future occurrence of the issue. It changes \`triage\` (and a derived priority), never the captured \`severity\`, and deletes no data. Returns the issue in the requested version (default 1). A rule already saying the same is not recorded again. ${MANAGE}`,
  security: bearerSecurity,
  request: {
    params: issueParams,
    query: versionQuery,
    body: { required: true, content: { 'application/json': { schema: IssueTriageRuleBody } } },
  },
  responses: {
    200: jsonContent(IssueSchema, 'The issue with its updated `triage`.'),
    ...errorResponses(400, 401, 403, 404, 413, 415, 422),
  },
});

/** The change a body asks for, with its assignee resolved and checked for the project. */
async function changeFor(
  deps: Deps,
  body: ChangeBody,
  project: ReadableProject,
  accountId: string,
  issueIds: string[],
): Promise<IssueChange> {
  const change: IssueChange = {
    projectId: project.id,
    issueIds,
    actorId: accountId,
    at: deps.now(),
  };
  if (body.status !== undefined) change.status = normalizeIssueStatus(body.status);
  if (body.priority !== undefined) change.priority = body.priority;
  if (body.assignee !== undefined) {
    const input = parseAssigneeInput(body.assignee);
    if (input === null)
      throw fail.validation('assignee must be a user id, me, team:<team_id> or none');
    change.assignee = await assigneeTarget(deps, input, project, accountId);
  }
  return change;
}

export function registerIssueBulkRoute(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  const auth = requireAccount(deps, { session: false });
  app.openapi(
    {
      ...bulkChange,
      middleware: [auth, strictQuery(bulkChange.request.query), jsonBody()] as const,
    },
    async (c) => {
      const body = c.req.valid('json');
      const { accountId } = c.get('principal');
      const project = await deps.store.projects.readable(accountId, body.project_id.toLowerCase());
      if (!project) throw fail.notFound('project not found');
      requireManage(project);
      const ids = body.issue_ids.map((id) => id.toLowerCase());
      const change = await changeFor(deps, body, project, accountId, ids);
      const outcomes = await deps.store.issues.change(change);
      const issues = new Map(
        (await deps.store.issues.byIds(project.id, ids)).map((i) => [i.id, i]),
      );
      const view = body.response_version === 2 ? issueViewV4 : issueViewV3;
      const results = ids.map((issueId, n) => {
        const outcome = outcomes[n] ?? 'not_found';
        const issue = outcome === 'not_found' ? undefined : issues.get(issueId);
        return { issue_id: issueId, outcome, issue: issue ? view(issue) : null };
      });
      return c.json({ project_id: project.id, results }, 200);
    },
  );
  fixedPathMethods(app, '/api/telemetry/issues/bulk', ['POST']);
}

export function registerIssueChangeRoutes(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  const auth = requireAccount(deps, { session: false });

  app.openapi(
    { ...patchIssue, middleware: [auth, strictQuery(versionQuery), jsonBody()] as const },
    async (c) => {
      const version = c.req.valid('query');
      const body = c.req.valid('json');
      const { accountId } = c.get('principal');
      const { issue, project } = await readableIssue(deps, accountId, c.req.param('issue_id'));
      requireManage(project);
      await deps.store.issues.change(await changeFor(deps, body, project, accountId, [issue.id]));
      const updated = await deps.store.issues.byId([project.id], issue.id);
      if (!updated) throw fail.notFound(ISSUE_NOT_FOUND);
      return c.json(issueView(updated, version), 200);
    },
  );

  app.openapi(
    {
      ...putTriageRule,
      middleware: [auth, strictQuery(versionQuery), jsonBody()] as const,
    },
    async (c) => {
      const version = c.req.valid('query');
      const body = c.req.valid('json');
      const { accountId } = c.get('principal');
      const { issue, project } = await readableIssue(deps, accountId, c.req.param('issue_id'));
      requireManage(project);
      await deps.store.issues.setRule({
        projectId: project.id,
        issueId: issue.id,
        severity: body.severity === 'source' ? null : body.severity,
        actorId: accountId,
        at: deps.now(),
      });
      const updated = await deps.store.issues.byId([project.id], issue.id);
      if (!updated) throw fail.notFound(ISSUE_NOT_FOUND);
      return c.json(issueView(updated, version), 200);
    },
  );
}
