import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { fail } from '../../core/api-error';
import type { Deps } from '../../core/deps';
import { parseRfc3339 } from '../../domain/read-rules/time-range';
import { requireAccount } from '../../http/account-auth';
import type { AppEnv } from '../../http/app-env';
import { jsonBody } from '../../http/json-body';
import {
  bearerOrSessionSecurity,
  errorResponses,
  jsonContent,
  UuidParam,
} from '../../http/openapi-shared';
import { readPathUuid } from '../../http/path-params';
import { readableProjectIds } from '../../http/readable-projects';
import { strictQuery } from '../../http/strict-query';
import { iso } from '../../views/telemetry-views';
import { ALERT_AUTH } from './alert-access';

const SnoozeSchema = z
  .object({
    issue_id: z.string().openapi({ format: 'uuid' }),
    until: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('IssueSnooze');

const params = z.object({ issue_id: UuidParam('issue_id') });

const getSnooze = createRoute({
  method: 'get',
  path: '/api/alerts/issue-snoozes/{issue_id}',
  tags: ['alerts'],
  summary: 'Read an issue’s snooze',
  description:
    'The snooze in force on the service clock: `until` is when it ends, null when the issue is not snoozed (never snoozed, ended, or past its time). Any member who reads the issue may read it; an issue the caller cannot read is `404`.',
  security: bearerOrSessionSecurity,
  request: { params, query: z.object({}).strict() },
  responses: {
    200: jsonContent(
      z
        .object({
          issue_id: z.string().openapi({ format: 'uuid' }),
          until: z.string().nullable().openapi({
            format: 'date-time',
            description: 'When the snooze ends; null: not snoozed.',
          }),
        })
        .openapi('IssueSnoozeState'),
      'The snooze in force, if any.',
    ),
    ...errorResponses(400, 401, 404, 422),
  },
});

const putSnooze = createRoute({
  method: 'put',
  path: '/api/alerts/issue-snoozes/{issue_id}',
  tags: ['alerts'],
  summary: 'Snooze an issue’s alerts',
  description:
    '`{until}` (RFC3339, later than now): until then the issue fires no issue alert (new issue, regression, counts). Any member who reads the issue may snooze it; a second PUT replaces the time.',
  security: bearerOrSessionSecurity,
  request: {
    params,
    query: z.object({}).strict(),
    body: {
      required: true,
      content: {
        'application/json': {
          schema: z
            .object({ until: z.string().openapi({ format: 'date-time' }) })
            .strict()
            .openapi('IssueSnoozeBody'),
        },
      },
    },
  },
  responses: {
    200: jsonContent(SnoozeSchema, 'The snooze in force.'),
    ...errorResponses(400, 401, 404, 413, 415, 422),
  },
});

const deleteSnooze = createRoute({
  method: 'delete',
  path: '/api/alerts/issue-snoozes/{issue_id}',
  tags: ['alerts'],
  summary: 'End an issue’s snooze',
  description:
    'Its alerts fire again from the next evaluation. An issue without a snooze is `404`.',
  security: bearerOrSessionSecurity,
  request: { params, query: z.object({}).strict() },
  responses: {
    200: jsonContent(
      z.object({ deleted: z.literal(true) }).openapi('IssueSnoozeDeleted'),
      'Ended.',
    ),
    ...errorResponses(400, 401, 404, 422),
  },
});

export function registerIssueSnoozeRoutes(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  const auth = requireAccount(deps, ALERT_AUTH);
  const readableIssue = async (accountId: string, issueId: string) => {
    const issue = await deps.store.issues.byId(
      [...(await readableProjectIds(deps, accountId))],
      issueId,
    );
    if (!issue) throw fail.notFound('issue not found');
    return issue;
  };

  app.openapi(
    { ...getSnooze, middleware: [auth, strictQuery(getSnooze.request.query)] as const },
    async (c) => {
      const issueId = readPathUuid(c.req.param('issue_id'), 'issue_id');
      await readableIssue(c.get('principal').accountId, issueId);
      const snooze = await deps.store.alerts.issueSnooze(issueId, deps.now());
      return c.json({ issue_id: issueId, until: snooze ? iso(snooze.until) : null }, 200);
    },
  );

  app.openapi(
    { ...putSnooze, middleware: [auth, strictQuery(putSnooze.request.query), jsonBody()] as const },
    async (c) => {
      const issueId = readPathUuid(c.req.param('issue_id'), 'issue_id');
      const { until } = c.req.valid('json');
      const { accountId } = c.get('principal');
      const issue = await readableIssue(accountId, issueId);
      const at = parseRfc3339(until);
      const now = deps.now();
      if (at === null || at <= now)
        throw fail.validation(
          'until must be an RFC3339 time later than now',
          'Send a future time, or DELETE the snooze.',
        );
      await deps.store.alerts.snoozeIssue({
        issueId,
        projectId: issue.projectId,
        until: at,
        createdBy: accountId,
        createdAt: now,
      });
      return c.json({ issue_id: issueId, until: iso(at) }, 200);
    },
  );

  app.openapi(
    { ...deleteSnooze, middleware: [auth, strictQuery(deleteSnooze.request.query)] as const },
    async (c) => {
      const issueId = readPathUuid(c.req.param('issue_id'), 'issue_id');
      await readableIssue(c.get('principal').accountId, issueId);
      if (!(await deps.store.alerts.unsnoozeIssue(issueId)))
        throw fail.notFound('the issue has no snooze');
      return c.json({ deleted: true as const }, 200);
    },
  );
}
