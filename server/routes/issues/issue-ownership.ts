import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { parseResponseVersion } from '../../domain/issue-triage';
import {
  OWNERSHIP_TEXT_MAX_BYTES,
  issueOwners,
  ownershipInputs,
  parseOwnership,
  unresolvedOwners,
  type Directory,
  type IssueOwner,
  type Owner,
  type RecentActor,
} from '../../domain/ownership';
import { OwnershipTextError } from '../../domain/ownership-owner';
import { invalid } from '../../domain/read-rules/read-rule-error';
import { isUuid } from '../../domain/read-rules/uuid';
import { requireAccount } from '../../http/account-auth';
import { fail } from '../../core/api-error';
import type { AppEnv } from '../../http/app-env';
import type { Deps } from '../../core/deps';
import { jsonBody } from '../../http/json-body';
import {
  bearerSecurity,
  errorResponses,
  jsonContent,
  orNull,
  UuidParam,
} from '../../http/openapi-shared';
import { UUID_FACETS, requiredKey } from '../../http/query-keys';
import { readQuery } from '../../http/read-query';
import { strictQuery } from '../../http/strict-query';
import type { ReadableProject } from '../../core/store/state/projects';
import type { OwnershipRecord } from '../../core/store/state/ownership';
import { iso } from '../../views/telemetry-views';
import { userView } from '../../views/issue-views';
import { fixedPathMethods, readableIssue, requireManage } from './issue-access';
import { UserRefSchema } from './issue-schema';

const OWNERSHIP_PATH = '/api/telemetry/issues/ownership';
/** Activity entries read for `recent_activity` owners. */
export const RECENT_ACTIVITY_ENTRIES = 50;

const RULES_SYNTAX =
  "Ownership rules, as Sentry writes them: one rule per line, `<type>:<pattern> <owner> [<owner>…]`; `#` starts a comment line and blank lines are ignored. Types: `path:<glob>` (a file path of the stack frames of the issue's latest occurrence; the glob matches the whole path or a trailing part after a `/`), `module:<glob>` (a frame's module: the JVM class, the Python file as a dotted name, the JavaScript file without extension), `url:<glob>` (the `url` or `http.url` attribute), `tag:<key>:<glob>` (the attribute `<key>`, a top-level key or a dotted path). In these globs `*` matches any characters and `?` one; case is ignored. Owners: `user@email` or `#team-slug`. The first matching line gives the owners.";
const CODEOWNERS_SYNTAX =
  'CODEOWNERS, as GitHub reads it: `<pattern> <owner>…` per line, `#` comments and blank lines; gitignore patterns against the stack frame file paths (a leading or inner `/` anchors at the root, otherwise any depth; a directory covers everything in it; `*` within a segment, `**` across segments); the last matching line wins. `!` negation and `[ ]` ranges are refused, as on GitHub. Owners: `@team-slug` or an email.';
const MAX_TEXT = `At most ${OWNERSHIP_TEXT_MAX_BYTES} bytes (128 KiB, UTF-8).`;

const UnresolvedOwnerSchema = z
  .object({
    source: z.enum(['ownership_rule', 'codeowners']),
    line: z.number().int().openapi({ description: '1-based line number in its text.' }),
    owner: z.string().openapi({ description: 'The owner as written (`#team`, `@team` or email).' }),
  })
  .openapi('IssueUnresolvedOwner');

const OwnershipSchema = z
  .object({
    project_id: z.string().openapi({ format: 'uuid' }),
    rules: z.string().openapi({ description: `${RULES_SYNTAX} Empty when not set.` }),
    codeowners: z.string().openapi({ description: `${CODEOWNERS_SYNTAX} Empty when not set.` }),
    updated_at: z
      .string()
      .nullable()
      .openapi({ description: 'When a text last really changed; null when never set.' }),
    unresolved_owners: z.array(UnresolvedOwnerSchema).openapi({
      description:
        'Owners naming no account (by email) or team (by slug) of the project organization, in text order. They are never suggested.',
    }),
  })
  .openapi('IssueOwnership');

const ownershipText = (name: string) =>
  z
    .string()
    .refine((s) => Buffer.byteLength(s) <= OWNERSHIP_TEXT_MAX_BYTES, {
      message: `${name} must be at most ${OWNERSHIP_TEXT_MAX_BYTES} bytes (UTF-8)`,
    })
    .optional();

const OwnershipBody = z
  .object({
    project_id: z
      .string()
      .regex(
        /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
        'project_id must be a UUID',
      )
      .openapi({ format: 'uuid' }),
    rules: ownershipText('rules').openapi({
      description: `Replaces the ownership rules; omitted keeps them, \`""\` clears them. ${MAX_TEXT} ${RULES_SYNTAX}`,
    }),
    codeowners: ownershipText('codeowners').openapi({
      description: `Replaces the CODEOWNERS text; omitted keeps it, \`""\` clears it. ${MAX_TEXT} ${CODEOWNERS_SYNTAX}`,
    }),
  })
  .strict()
  .refine((b) => b.rules !== undefined || b.codeowners !== undefined, {
    message: 'send rules, codeowners or both',
  })
  .openapi('IssueOwnershipChange');

const OwnerIdentity = {
  user_id: z.string().optional().openapi({ format: 'uuid', description: 'Users.' }),
  team_id: z.string().optional().openapi({ format: 'uuid', description: 'Teams.' }),
  slug: z.string().optional().openapi({ description: 'Teams.' }),
  name: z.string().nullable(),
  email: z.string().optional().openapi({ description: 'Users.' }),
  assignee: z.string().openapi({
    description: 'The value to send as `assignee` to assign the issue to this owner.',
  }),
};

const SuggestedSchema = z
  .object({ type: z.enum(['user', 'team']), ...OwnerIdentity })
  .openapi('IssueSuggestedAssignee');

const IssueOwnerSchema = z
  .object({
    type: z.enum(['user', 'team']),
    source: z.enum(['ownership_rule', 'codeowners', 'recent_activity']),
    rule: z
      .string()
      .nullable()
      .openapi({ description: 'The matching line as written; null for `recent_activity`.' }),
    line: z
      .number()
      .int()
      .nullable()
      .openapi({ description: '1-based line number; null for `recent_activity`.' }),
    matched: z.string().openapi({
      description:
        'What matched: the stack frame file path (`path` rules and CODEOWNERS), the module, the url or the attribute value; for `recent_activity`, the kind of change (`status`, `priority`, `assigned`, …).',
    }),
    ...OwnerIdentity,
  })
  .openapi('IssueOwner');

const OwnersV1Schema = z
  .object({ issue_id: z.string().openapi({ format: 'uuid' }), owners: z.array(UserRefSchema) })
  .openapi('IssueOwnersV1');

const OwnersV2Schema = z
  .object({
    issue_id: z.string().openapi({ format: 'uuid' }),
    suggested_assignee: orNull(SuggestedSchema).openapi({
      description:
        'The first owner that can be assigned (a user who can read the project or a team of its organization); null when there is none.',
    }),
    owners: z.array(IssueOwnerSchema),
    inputs: z
      .object({
        files: z
          .array(z.string())
          .openapi({ description: 'Stack frame file paths, in stack order.' }),
        modules: z.array(z.string()),
        url: z.string().nullable(),
        ownership_updated_at: z.string().nullable(),
      })
      .openapi({ description: "What was matched: the issue's latest occurrence." }),
  })
  .openapi('IssueOwnersV2');

const getOwnership = createRoute({
  method: 'get',
  path: OWNERSHIP_PATH,
  tags: ['issues'],
  summary: 'The issue ownership rules and CODEOWNERS of a project',
  description:
    '`project_id` is required (`422` when missing or not a UUID). Any account that can read the project may call it; otherwise `404`.',
  security: bearerSecurity,
  request: {
    query: readQuery({ project_id: requiredKey('Required.', UUID_FACETS) }, (q) => {
      if (!isUuid(q.project_id)) throw invalid('project_id must be a UUID');
      return { projectId: q.project_id.toLowerCase() };
    }),
  },
  responses: {
    200: jsonContent(OwnershipSchema, 'Both texts and the owners they name that do not resolve.'),
    ...errorResponses(401, 404, 422),
  },
});

const putOwnership = createRoute({
  method: 'put',
  path: OWNERSHIP_PATH,
  tags: ['issues'],
  summary: 'Replace the issue ownership rules or CODEOWNERS of a project',
  description: `Body: \`project_id\` and \`rules\`, \`codeowners\` or both. An omitted text keeps its value; an empty string clears it. ${MAX_TEXT} An invalid line gives \`422\` whose \`error\` names it (\`rules line 3: …\`, \`codeowners line 2: …\`); nothing changes. \`updated_at\` moves only when a text really changes. Owners that name no account or team are accepted and listed in \`unresolved_owners\`. Needs permission to manage issues (owner or admin; \`403\` otherwise).`,
  security: bearerSecurity,
  request: {
    query: z.object({}).strict(),
    body: { required: true, content: { 'application/json': { schema: OwnershipBody } } },
  },
  responses: {
    200: jsonContent(OwnershipSchema, 'The stored ownership.'),
    ...errorResponses(401, 403, 404, 413, 415, 422),
  },
});

const getOwners = createRoute({
  method: 'get',
  path: '/api/telemetry/issues/{issue_id}/owners',
  tags: ['issues'],
  summary: 'Who owns an issue',
  description:
    "Owners in order: the owners of the first matching ownership rule (`ownership_rule`), then those of the last matching CODEOWNERS line (`codeowners`), then the accounts that changed the issue recently, newest first (`recent_activity`, from its last 50 activity entries). Matching looks at the issue's latest occurrence: the file paths of its stack frames (JVM, JavaScript and Python formats), their modules, its `url`/`http.url` and its attributes. Each owner appears once, at its first place. Owners that name no account or team of the project organization, and accounts that can no longer read the project, are left out. Version 1 (default): `{issue_id, owners}` with the user owners only; version 2: `{issue_id, suggested_assignee, owners, inputs}`.",
  security: bearerSecurity,
  request: {
    params: z.object({ issue_id: UuidParam('issue_id') }),
    query: readQuery(
      {
        response_version: z.enum(['1', '2']).optional().openapi({
          description: '1 (default): accounts only; 2: users and teams with their source.',
        }),
      },
      (q) => parseResponseVersion(q.response_version, [1, 2] as const, 1),
    ),
  },
  responses: {
    200: jsonContent(z.union([OwnersV1Schema, OwnersV2Schema]), 'The owners of the issue.'),
    ...errorResponses(400, 401, 404, 422),
  },
});

async function directoryOf(deps: Deps, project: ReadableProject): Promise<Directory> {
  return {
    accounts: await deps.store.issues.readersOf(project.id),
    teams: await deps.store.issues.teamsOf(project.organizationId),
  };
}

/** Parses stored or sent texts; an invalid line is `422` naming it. */
function parsed(rules: string, codeowners: string) {
  try {
    return parseOwnership(rules, codeowners);
  } catch (e) {
    if (e instanceof OwnershipTextError)
      throw fail.validation(e.message, 'Fix the named line of the text and send it again.');
    throw e;
  }
}

async function ownershipView(deps: Deps, project: ReadableProject, o: OwnershipRecord) {
  return {
    project_id: project.id,
    rules: o.rules,
    codeowners: o.codeowners,
    updated_at: o.updatedAt === null ? null : iso(o.updatedAt),
    unresolved_owners: unresolvedOwners(
      parsed(o.rules, o.codeowners),
      await directoryOf(deps, project),
    ),
  };
}

function identityView(o: Owner) {
  return o.type === 'user'
    ? { type: o.type, user_id: o.id, name: o.name, email: o.email, assignee: o.id }
    : { type: o.type, team_id: o.id, slug: o.slug, name: o.name, assignee: `team:${o.id}` };
}

function ownerView(o: IssueOwner) {
  return {
    ...identityView(o),
    source: o.source,
    rule: o.rule,
    line: o.line,
    matched: o.matched,
  };
}

/** The ownership GET and PUT: fixed paths, registered before the `{issue_id}` routes. */
export function registerIssueOwnershipRoutes(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  const auth = requireAccount(deps, { session: false });
  app.openapi(
    { ...getOwnership, middleware: [auth, strictQuery(getOwnership.request.query)] as const },
    async (c) => {
      const { projectId } = c.req.valid('query');
      const project = await deps.store.projects.readable(c.get('principal').accountId, projectId);
      if (!project) throw fail.notFound('project not found');
      return c.json(
        await ownershipView(deps, project, await deps.store.ownership.get(project.id)),
        200,
      );
    },
  );
  app.openapi(
    {
      ...putOwnership,
      // Two texts of 128 KiB each, even written with JSON escapes, fit.
      middleware: [
        auth,
        strictQuery(putOwnership.request.query),
        jsonBody(2 * 1024 * 1024),
      ] as const,
    },
    async (c) => {
      const body = c.req.valid('json');
      const { accountId } = c.get('principal');
      // Request values first: an invalid line is `422` before the project is looked at.
      parsed(body.rules ?? '', body.codeowners ?? '');
      const project = await deps.store.projects.readable(accountId, body.project_id.toLowerCase());
      if (!project) throw fail.notFound('project not found');
      requireManage(project);
      const stored = await deps.store.ownership.set({
        projectId: project.id,
        ...(body.rules === undefined ? {} : { rules: body.rules }),
        ...(body.codeowners === undefined ? {} : { codeowners: body.codeowners }),
        at: deps.now(),
        by: accountId,
      });
      return c.json(await ownershipView(deps, project, stored), 200);
    },
  );
  fixedPathMethods(app, OWNERSHIP_PATH, ['GET', 'PUT']);
}

export function registerIssueOwnersRoute(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  app.openapi(
    {
      ...getOwners,
      middleware: [
        requireAccount(deps, { session: false }),
        strictQuery(getOwners.request.query),
      ] as const,
    },
    async (c) => {
      const version = c.req.valid('query');
      const { issue, project } = await readableIssue(
        deps,
        c.get('principal').accountId,
        c.req.param('issue_id'),
      );
      const stored = await deps.store.ownership.get(project.id);
      const inputs = ownershipInputs(issue);
      const recentActors: RecentActor[] = (
        await deps.store.issues.activity(issue.id, null, RECENT_ACTIVITY_ENTRIES)
      ).flatMap((a) => (a.actor ? [{ account: a.actor, change: a.type }] : []));
      const owners = issueOwners({
        parsed: parsed(stored.rules, stored.codeowners),
        inputs,
        recentActors,
        directory: await directoryOf(deps, project),
      });
      if (version === 1)
        return c.json(
          {
            issue_id: issue.id,
            owners: owners.flatMap((o) => (o.type === 'user' ? [userView(o)] : [])),
          },
          200,
        );
      const first = owners[0];
      return c.json(
        {
          issue_id: issue.id,
          suggested_assignee: first ? identityView(first) : null,
          owners: owners.map(ownerView),
          inputs: {
            files: inputs.files,
            modules: inputs.modules,
            url: inputs.url,
            ownership_updated_at: stored.updatedAt === null ? null : iso(stored.updatedAt),
          },
        },
        200,
      );
    },
  );
}
