import { projectsInScope } from '../../http/readable-projects';
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import {
  ISSUE_STATUS_INPUTS,
  ISSUE_VERSIONS,
  PRIORITIES,
  normalizeIssueStatus,
  parseAssigneeFilter,
  parseResponseVersion,
  type AssigneeFilterInput,
} from '../../domain/issue-triage';
import { exactFilter } from '../../domain/read-rules/exact-filter';
import { DEFAULT_LIMIT, MAX_LIMIT, parseLimit } from '../../domain/read-rules/limit';
import { TIME_ID_CURSOR, parseListMode, type ListMode } from '../../domain/read-rules/list-mode';
import { parseProjectScope } from '../../domain/read-rules/project-scope';
import { invalid } from '../../domain/read-rules/read-rule-error';
import { parseTimeRange } from '../../domain/read-rules/time-range';
import { UUID_SOURCE } from '../../domain/read-rules/uuid';
import { SEVERITIES } from '../../domain/severity';
import { requireAccount } from '../../http/account-auth';
import type { AppEnv } from '../../http/app-env';
import type { Deps } from '../../core/deps';
import {
  bearerSecurity,
  errorResponses,
  jsonContent,
  orNull,
  UuidParam,
} from '../../http/openapi-shared';
import {
  EXACT_FACETS,
  PROJECT_IDS_FACETS,
  SINCE_FACETS,
  TIMESTAMP_FACETS,
  UUID_FACETS,
  integerFacets,
  key,
} from '../../http/query-keys';
import { readQuery } from '../../http/read-query';
import { strictQuery } from '../../http/strict-query';
import type { IssueAssigneeFilter } from '../../core/store/state/issues';
import { issueView, occurrenceView } from '../../views/issue-views';
import { readableIssue } from './issue-access';
import { IssueSchema, OccurrenceSchema, TimeIdCursorSchema } from './issue-schema';

const responseVersion = z.enum(['1', '2', '3', '4']).optional().openapi({
  description:
    'Issue response version: 1 (default; archived shows as `ignored`, no priority), 2 (`archived`, `priority`, `priority_source`), 3 (plus `assignee`, accounts only), 4 (assignee with `type`: user or team). Other values give `422`.',
});

/** List mode and page size of the issue list and the occurrence list. */
const cursorKeys = {
  pagination: z
    .enum(['cursor'])
    .optional()
    .openapi({ description: 'Send `cursor` for a page object with `next_cursor`.' }),
  cursor_time: key('`next_cursor.time` of the previous page.', TIMESTAMP_FACETS),
  cursor_id: key('`next_cursor.id` of the previous page.', UUID_FACETS),
  limit: key(
    `Rows per page: default ${DEFAULT_LIMIT}, maximum ${MAX_LIMIT} (a larger value is replaced by it).`,
    integerFacets({ minimum: 1, default: DEFAULT_LIMIT }),
  ),
};

/** The position after which a `cursor_time` + `cursor_id` page starts. */
const afterOf = (mode: ListMode<'cursor_id'>) =>
  mode.mode === 'cursor' && mode.after
    ? { time: mode.after.time, id: mode.after.cursor_id.toLowerCase() }
    : null;

const issueListQuery = (now: () => number) =>
  readQuery(
    {
      project_id: key('One project (UUID). An unreadable project gives `[]`.', UUID_FACETS),
      project_ids: key(
        '2 to 50 distinct project UUIDs, comma-separated. Any unreadable id gives `404`.',
        PROJECT_IDS_FACETS,
      ),
      status: z
        .enum(ISSUE_STATUS_INPUTS)
        .optional()
        .openapi({ description: '`ignored` selects the same issues as `archived`.' }),
      severity: z
        .enum(SEVERITIES)
        .optional()
        .openapi({ description: "Effective severity (after the issue's severity rule)." }),
      priority: z.enum(PRIORITIES).optional().openapi({
        description: 'Priority as shown (manual, or derived from effective severity).',
      }),
      assignee: key(
        '`me`, `none`, `my_teams` (a team the caller is in), a user id, or `team:<team_id>`. ' +
          '`none` matches what reads show as no assignee: nobody assigned, or an account that can no longer read the project; ' +
          'a user id matches only while that account can read the project.',
        ASSIGNEE_FACETS,
      ),
      service_name: key("Exact service name of the issue (its latest occurrence's).", EXACT_FACETS),
      release: key("Exact release of the issue (its latest occurrence's).", EXACT_FACETS),
      environment: key("Exact environment of the issue (its latest occurrence's).", EXACT_FACETS),
      since: key(
        '`<n>h`, `<n>d` or RFC3339; inclusive; compared with `last_seen_at`.',
        SINCE_FACETS,
      ),
      ...cursorKeys,
      response_version: responseVersion,
    },
    (q) => {
      // Every value is checked before access is, so a bad request is a 422 whatever it reads.
      const scope = parseProjectScope(q);
      const status = oneOf('status', ISSUE_STATUS_INPUTS, q.status);
      const severity = oneOf('severity', SEVERITIES, q.severity);
      const priority = oneOf('priority', PRIORITIES, q.priority);
      const assignee = parseAssigneeFilter(q.assignee);
      const range = parseTimeRange({ since: q.since }, now());
      const mode = parseListMode(q, TIME_ID_CURSOR);
      const limit = parseLimit(q.limit);
      const version = parseResponseVersion(q.response_version, ISSUE_VERSIONS, 1);
      return {
        scope,
        status: status === null ? null : normalizeIssueStatus(status),
        severity,
        priority,
        assignee,
        since: range.since,
        mode,
        after: afterOf(mode),
        limit,
        version,
        serviceName: exactFilter(q, 'service_name'),
        release: exactFilter(q, 'release'),
        environment: exactFilter(q, 'environment'),
      };
    },
  );

const IssuePageSchema = z
  .object({ issues: z.array(IssueSchema), next_cursor: orNull(TimeIdCursorSchema) })
  .openapi('IssuePage');

const listIssues = (now: () => number) =>
  createRoute({
    method: 'get',
    path: '/api/telemetry/issues',
    tags: ['issues'],
    summary: 'Issues of readable projects, newest first',
    description:
      'Ordered by `last_seen_at`, then `id`, both descending; `since` compares `last_seen_at`. A bare array by default; with `pagination=cursor`, `{issues, next_cursor}` (cursor: `cursor_time` + `cursor_id`). Every issue of a response, and of a cursor page, is in the one `response_version` requested. Filters compare the issue as shown: its latest occurrence for `service_name`, `release` and `environment`, effective severity, shown priority and assignee.',
    security: bearerSecurity,
    request: { query: issueListQuery(now) },
    responses: {
      200: jsonContent(z.union([z.array(IssueSchema), IssuePageSchema]), 'Matching issues.'),
      ...errorResponses(401, 404, 422),
    },
  });

/** `assignee`: `me`, `none`, `my_teams`, a user UUID or `team:<team UUID>`. */
const ASSIGNEE_FACETS = {
  pattern: `^(me|none|my_teams|${UUID_SOURCE}|team:${UUID_SOURCE})$`,
};

const issueParams = z.object({ issue_id: UuidParam('issue_id') });

const getIssue = createRoute({
  method: 'get',
  path: '/api/telemetry/issues/{issue_id}',
  tags: ['issues'],
  summary: 'One issue',
  description:
    'The issue in the requested `response_version`. Unknown and unreadable ids both give `404` with `error` `issue not found`. `symbolication` is never returned: the service stores no release artifacts (build files, source maps, debug files), so no issue has a release artifact identity.',
  security: bearerSecurity,
  request: {
    params: issueParams,
    query: readQuery({ response_version: responseVersion }, (q) =>
      parseResponseVersion(q.response_version, ISSUE_VERSIONS, 1),
    ),
  },
  responses: {
    200: jsonContent(IssueSchema, 'The issue.'),
    ...errorResponses(400, 401, 404, 422),
  },
});

const OccurrencePageSchema = z
  .object({
    issue_id: z.string().openapi({ format: 'uuid' }),
    events: z.array(OccurrenceSchema),
    next_cursor: orNull(TimeIdCursorSchema),
  })
  .openapi('IssueOccurrencePage');

const EventsQuery = readQuery(cursorKeys, (q) => {
  const mode = parseListMode(q, TIME_ID_CURSOR);
  return { mode, after: afterOf(mode), limit: parseLimit(q.limit) };
});

const listOccurrences = createRoute({
  method: 'get',
  path: '/api/telemetry/issues/{issue_id}/events',
  tags: ['issues'],
  summary: 'Occurrences of an issue, newest first',
  description:
    "Ordered by `occurred_at`, then `id`, both descending. Each occurrence carries its own release, trace, message and context, never the group's. A bare array by default; with `pagination=cursor`, `{issue_id, events, next_cursor}`, whose cursor ids are occurrence ids. No status, triage, priority or counts.",
  security: bearerSecurity,
  request: { params: issueParams, query: EventsQuery },
  responses: {
    200: jsonContent(
      z.union([z.array(OccurrenceSchema), OccurrencePageSchema]),
      'The occurrences.',
    ),
    ...errorResponses(400, 401, 404, 422),
  },
});

/** One value of a closed set, or a 422 naming the set. */
function oneOf<T extends string>(
  name: string,
  values: readonly T[],
  value: string | undefined,
): T | null {
  if (value === undefined) return null;
  const found = values.find((v) => v === value);
  if (found === undefined) throw invalid(`${name} must be one of ${values.join(', ')}`);
  return found;
}

/** The assignee filter for this caller: `me` and `my_teams` name the caller. */
function assigneeFilterFor(
  input: AssigneeFilterInput | null,
  accountId: string,
): IssueAssigneeFilter | null {
  if (input === null) return null;
  switch (input.kind) {
    case 'me':
      return { kind: 'user', accountId };
    case 'my_teams':
      return { kind: 'teams_of', accountId };
    case 'none':
      return { kind: 'none' };
    case 'user':
      return { kind: 'user', accountId: input.accountId };
    case 'team':
      return { kind: 'team', teamId: input.teamId };
  }
}

export function registerIssueReadRoutes(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  const auth = requireAccount(deps, { session: false });

  const list = listIssues(deps.now);
  app.openapi(
    { ...list, middleware: [auth, strictQuery(list.request.query)] as const },
    async (c) => {
      const { scope, mode, limit, version, assignee, ...filters } = c.req.valid('query');
      const { accountId } = c.get('principal');
      const projectIds = await projectsInScope(deps, accountId, scope);
      // One row more than the page tells whether another page exists.
      const rows = await deps.store.issues.list({
        projectIds,
        ...filters,
        assignee: assigneeFilterFor(assignee, accountId),
        limit: mode.mode === 'cursor' ? limit + 1 : limit,
      });
      const pageRows = rows.slice(0, limit);
      const page = pageRows.map((i) => issueView(i, version));
      if (mode.mode === 'array') return c.json(page, 200);
      const last = pageRows[pageRows.length - 1];
      const next_cursor =
        rows.length > limit && last
          ? { time: new Date(last.lastSeenAt).toISOString(), id: last.id }
          : null;
      return c.json({ issues: page, next_cursor }, 200);
    },
  );

  app.openapi(
    { ...getIssue, middleware: [auth, strictQuery(getIssue.request.query)] as const },
    async (c) => {
      const version = c.req.valid('query');
      const { issue } = await readableIssue(
        deps,
        c.get('principal').accountId,
        c.req.param('issue_id'),
      );
      return c.json(issueView(issue, version), 200);
    },
  );

  app.openapi(
    { ...listOccurrences, middleware: [auth, strictQuery(EventsQuery)] as const },
    async (c) => {
      const { mode, after, limit } = c.req.valid('query');
      const { issue } = await readableIssue(
        deps,
        c.get('principal').accountId,
        c.req.param('issue_id'),
      );
      const rows = await deps.store.occurrences.list(
        issue.id,
        after,
        mode.mode === 'cursor' ? limit + 1 : limit,
      );
      const events = rows.slice(0, limit).map(occurrenceView);
      if (mode.mode === 'array') return c.json(events, 200);
      const last = events[events.length - 1];
      const next_cursor =
        rows.length > limit && last ? { time: last.occurred_at, id: last.id } : null;
      return c.json({ issue_id: issue.id, events, next_cursor }, 200);
    },
  );
}
