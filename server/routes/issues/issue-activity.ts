import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { parseResponseVersion } from '../../domain/issue-triage';
import { parseLimitInRange } from '../../domain/read-rules/limit';
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
import { TIMESTAMP_FACETS, UUID_FACETS, integerFacets, key } from '../../http/query-keys';
import { readQuery } from '../../http/read-query';
import { strictQuery } from '../../http/strict-query';
import { activityView } from '../../views/issue-views';
import { parsePageCursor, readableIssue } from './issue-access';
import { ActivityEntrySchema, TimeIdCursorSchema } from './issue-schema';

export const ACTIVITY_LIMIT = { fallback: 50, max: 200 };

const ActivityQuery = readQuery(
  {
    response_version: z.enum(['2']).optional().openapi({
      description: 'Only 2, the one version of this route (also when omitted); others give `422`.',
    }),
    limit: key(
      `Entries per page: 1 to ${ACTIVITY_LIMIT.max}, default ${ACTIVITY_LIMIT.fallback}; outside gives \`422\`.`,
      integerFacets({
        minimum: 1,
        maximum: ACTIVITY_LIMIT.max,
        default: ACTIVITY_LIMIT.fallback,
        digits: 6,
      }),
    ),
    cursor_time: key('`next_cursor.time`.', TIMESTAMP_FACETS),
    cursor_id: key('`next_cursor.id`.', UUID_FACETS),
  },
  (q) => {
    parseResponseVersion(q.response_version, [2] as const, 2);
    return { limit: parseLimitInRange(q.limit, ACTIVITY_LIMIT), after: parsePageCursor(q) };
  },
);

const ActivityPageSchema = z
  .object({ activity: z.array(ActivityEntrySchema), next_cursor: orNull(TimeIdCursorSchema) })
  .openapi('IssueActivityPage');

const listActivity = createRoute({
  method: 'get',
  path: '/api/telemetry/issues/{issue_id}/activity',
  tags: ['issues'],
  summary: 'What happened to an issue, newest first',
  description:
    'Every real change (`status`, `priority`, `assigned`, `unassigned`, `severity_rule`) with who made it and when, plus `first_seen` from the first occurrence; ordered by `at`, then entry `id`, both descending. A regression (a new occurrence reopening a resolved issue) is a `status` entry without actor. A change to a value already held records nothing. Always a page: `{activity, next_cursor}`; continue with `cursor_time` and `cursor_id` (no `pagination` key).',
  security: bearerSecurity,
  request: { params: z.object({ issue_id: UuidParam('issue_id') }), query: ActivityQuery },
  responses: {
    200: jsonContent(ActivityPageSchema, 'Activity entries.'),
    ...errorResponses(400, 401, 404, 422),
  },
});

export function registerIssueActivityRoute(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  app.openapi(
    {
      ...listActivity,
      middleware: [requireAccount(deps, { session: false }), strictQuery(ActivityQuery)] as const,
    },
    async (c) => {
      const { limit, after } = c.req.valid('query');
      const { issue } = await readableIssue(
        deps,
        c.get('principal').accountId,
        c.req.param('issue_id'),
      );
      const rows = await deps.store.issues.activity(issue.id, after, limit + 1);
      const activity = rows.slice(0, limit).map(activityView);
      const last = activity[activity.length - 1];
      const next_cursor = rows.length > limit && last ? { time: last.at, id: last.id } : null;
      return c.json({ activity, next_cursor }, 200);
    },
  );
}
