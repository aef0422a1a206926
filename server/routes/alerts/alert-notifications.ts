import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { Deps } from '../../core/deps';
import { parseLimit } from '../../domain/read-rules/limit';
import { requireAccount } from '../../http/account-auth';
import type { AppEnv } from '../../http/app-env';
import { jsonBody } from '../../http/json-body';
import { moveReadMark, readMarkAnswer, readMarkBody } from '../../http/inbox-read-mark';
import {
  bearerOrSessionSecurity,
  errorResponses,
  jsonContent,
  orNull,
} from '../../http/openapi-shared';
import { integerFacets, key } from '../../http/query-keys';
import { readableProjectIds } from '../../http/readable-projects';
import { readQuery } from '../../http/read-query';
import { strictQuery } from '../../http/strict-query';
import { iso } from '../../views/telemetry-views';
import { ALERT_AUTH } from './alert-access';
import {
  CURSOR_FACETS,
  NotificationSchema,
  decodeCursor,
  notificationView,
  page,
} from './alert-schema';

export const ALERT_NOTIFICATION_LIMIT = { fallback: 50, max: 200 };

const NotificationsQuery = readQuery(
  {
    cursor: key('`next_cursor` of the previous page.', CURSOR_FACETS),
    limit: key(
      `Notifications per page: default ${ALERT_NOTIFICATION_LIMIT.fallback}, maximum ${ALERT_NOTIFICATION_LIMIT.max} (a larger value is replaced by it).`,
      integerFacets({ minimum: 1, default: ALERT_NOTIFICATION_LIMIT.fallback }),
    ),
  },
  (q) => ({ after: decodeCursor(q.cursor), limit: parseLimit(q.limit, ALERT_NOTIFICATION_LIMIT) }),
);

const listNotifications = createRoute({
  method: 'get',
  path: '/api/alerts/notifications',
  tags: ['alerts'],
  summary: 'Alert notifications in your inbox',
  description:
    'A notification is an alert firing or resolving for a rule whose inbox is you or a team you were in when it fired (muted rules send none); only projects you can still read. Newest first by `at`, then `id`; continue with `cursor`. `unread` counts those later than `read_at` over every page.',
  security: bearerOrSessionSecurity,
  request: { query: NotificationsQuery },
  responses: {
    200: jsonContent(
      z
        .object({
          notifications: z.array(NotificationSchema),
          unread: z.number().int(),
          read_at: orNull(z.string().openapi({ format: 'date-time' })),
          next_cursor: orNull(z.string()),
        })
        .openapi('AlertNotifications'),
      'Your alert notifications.',
    ),
    ...errorResponses(401, 422),
  },
});

const ReadBody = readMarkBody('AlertNotificationsRead');

const markRead = createRoute({
  method: 'post',
  path: '/api/alerts/notifications/read',
  tags: ['alerts'],
  summary: 'Move your alert notification read mark',
  description:
    '`{}` marks everything up to now as read; `{read_at}` up to that time. The mark never moves backward. Returns the mark in force and the unread count.',
  security: bearerOrSessionSecurity,
  request: {
    query: z.object({}).strict(),
    body: { required: true, content: { 'application/json': { schema: ReadBody } } },
  },
  responses: {
    200: jsonContent(readMarkAnswer('AlertNotificationsReadMark'), 'The read mark in force.'),
    ...errorResponses(401, 413, 415, 422),
  },
});

export function registerAlertNotificationRoutes(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  const auth = requireAccount(deps, ALERT_AUTH);
  const readable = async (accountId: string) => [...(await readableProjectIds(deps, accountId))];

  app.openapi(
    { ...listNotifications, middleware: [auth, strictQuery(NotificationsQuery)] as const },
    async (c) => {
      const { after, limit } = c.req.valid('query');
      const { accountId } = c.get('principal');
      const found = await deps.store.alerts.notifications({
        accountId,
        projectIds: await readable(accountId),
        after,
        limit: limit + 1,
      });
      const p = page(
        found.notifications,
        limit,
        (n) => ({ time: n.at, id: n.id }),
        (n) => notificationView(n, found.readAt),
      );
      return c.json(
        {
          notifications: p.items,
          unread: found.unread,
          read_at: found.readAt === null ? null : iso(found.readAt),
          next_cursor: p.next_cursor,
        },
        200,
      );
    },
  );

  app.openapi(
    { ...markRead, middleware: [auth, strictQuery(markRead.request.query), jsonBody()] as const },
    async (c) => {
      const { accountId } = c.get('principal');
      const answer = await moveReadMark(deps.store.alerts, {
        accountId,
        projectIds: await readable(accountId),
        readAt: c.req.valid('json').read_at,
        now: deps.now(),
      });
      return c.json(answer, 200);
    },
  );
}
