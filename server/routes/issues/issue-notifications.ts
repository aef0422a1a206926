import { readableProjectIds } from '../../http/readable-projects';
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { parseLimit } from '../../domain/read-rules/limit';
import { requireAccount } from '../../http/account-auth';
import type { AppEnv } from '../../http/app-env';
import type { Deps } from '../../core/deps';
import { jsonBody } from '../../http/json-body';
import { moveReadMark, readMarkAnswer, readMarkBody } from '../../http/inbox-read-mark';
import { bearerSecurity, errorResponses, jsonContent, orNull } from '../../http/openapi-shared';
import { TIMESTAMP_FACETS, UUID_FACETS, integerFacets, key } from '../../http/query-keys';
import { readQuery } from '../../http/read-query';
import { strictQuery } from '../../http/strict-query';
import { iso } from '../../views/telemetry-views';
import { notificationView } from '../../views/issue-views';
import { fixedPathMethods, parsePageCursor } from './issue-access';
import { NotificationSchema, TimeIdCursorSchema } from './issue-schema';

export const NOTIFICATION_LIMIT = { fallback: 50, max: 200 };

const NotificationsQuery = readQuery(
  {
    limit: key(
      `Notifications per page: default ${NOTIFICATION_LIMIT.fallback}, maximum ${NOTIFICATION_LIMIT.max} (a larger value is replaced by it).`,
      integerFacets({ minimum: 1, default: NOTIFICATION_LIMIT.fallback }),
    ),
    cursor_time: key('`next_cursor.time`.', TIMESTAMP_FACETS),
    cursor_id: key('`next_cursor.id`.', UUID_FACETS),
  },
  (q) => ({ limit: parseLimit(q.limit, NOTIFICATION_LIMIT), after: parsePageCursor(q) }),
);

const readAtField = z
  .string()
  .nullable()
  .openapi({ format: 'date-time', description: 'Your read mark; null before the first read.' });

const NotificationsSchema = z
  .object({
    notifications: z.array(NotificationSchema),
    unread: z
      .number()
      .int()
      .openapi({ description: 'Notifications later than `read_at`, over every page.' }),
    read_at: readAtField,
    next_cursor: orNull(TimeIdCursorSchema),
  })
  .openapi('IssueNotifications');

const listNotifications = createRoute({
  method: 'get',
  path: '/api/telemetry/issues/notifications',
  tags: ['issues'],
  summary: 'Assignments of issues to you or your teams',
  description:
    'A notification is an assignment of an issue to you, or to a team you are in now, made by another account; only issues of projects you can still read. Newest first by `at`, then `id`. Always a page: continue with `cursor_time` and `cursor_id` from `next_cursor` (no `pagination` key).',
  security: bearerSecurity,
  request: { query: NotificationsQuery },
  responses: {
    200: jsonContent(NotificationsSchema, 'Your notifications.'),
    ...errorResponses(401, 422),
  },
});

const ReadBody = readMarkBody('IssueNotificationsRead');

const markRead = createRoute({
  method: 'post',
  path: '/api/telemetry/issues/notifications/read',
  tags: ['issues'],
  summary: 'Move your notification read mark',
  description:
    '`{}` marks everything up to now as read; `{read_at}` up to that time. The mark never moves backward: an earlier time leaves it where it is. Returns the mark now in force and the unread count.',
  security: bearerSecurity,
  request: {
    query: z.object({}).strict(),
    body: { required: true, content: { 'application/json': { schema: ReadBody } } },
  },
  responses: {
    200: jsonContent(readMarkAnswer('IssueNotificationsReadMark'), 'The read mark in force.'),
    ...errorResponses(401, 413, 415, 422),
  },
});

export function registerIssueNotificationRoutes(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  const auth = requireAccount(deps, { session: false });
  const readableIds = async (accountId: string) => [...(await readableProjectIds(deps, accountId))];

  app.openapi(
    {
      ...listNotifications,
      middleware: [auth, strictQuery(NotificationsQuery)] as const,
    },
    async (c) => {
      const { limit, after } = c.req.valid('query');
      const { accountId } = c.get('principal');
      const page = await deps.store.issues.notifications({
        accountId,
        projectIds: await readableIds(accountId),
        after,
        limit: limit + 1,
      });
      const notifications = page.notifications
        .slice(0, limit)
        .map((n) => notificationView(n, page.readAt));
      const last = notifications[notifications.length - 1];
      const next_cursor =
        page.notifications.length > limit && last ? { time: last.at, id: last.id } : null;
      return c.json(
        {
          notifications,
          unread: page.unread,
          read_at: page.readAt === null ? null : iso(page.readAt),
          next_cursor,
        },
        200,
      );
    },
  );

  app.openapi(
    { ...markRead, middleware: [auth, strictQuery(markRead.request.query), jsonBody()] as const },
    async (c) => {
      const { accountId } = c.get('principal');
      const answer = await moveReadMark(deps.store.issues, {
        accountId,
        projectIds: await readableIds(accountId),
        readAt: c.req.valid('json').read_at,
        now: deps.now(),
      });
      return c.json(answer, 200);
    },
  );
  fixedPathMethods(app, '/api/telemetry/issues/notifications', ['GET']);
  fixedPathMethods(app, '/api/telemetry/issues/notifications/read', ['POST']);
}
