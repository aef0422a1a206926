import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { exactFilter } from '../../domain/read-rules/exact-filter';
import { requireAccount } from '../../http/account-auth';
import type { AppEnv } from '../../http/app-env';
import type { Deps } from '../../core/deps';
import { bearerSecurity, errorResponses, jsonContent } from '../../http/openapi-shared';
import { projectsInScope } from '../../http/readable-projects';
import { strictQuery } from '../../http/strict-query';
import { timeIdPage } from '../../http/time-id-page';
import { actionView } from '../../views/telemetry-views';
import { ActionPageSchema, ActionSchema } from './action-schema';
import { parseTimeListQuery, timeListKeys } from './time-list-query';

const ActionListQuery = z
  .object({
    ...timeListKeys('actions'),
    distinct_id: z.string().optional().openapi({ description: 'Exact distinct id.' }),
  })
  .strict();
const ACTION_LIST_KEYS = Object.keys(ActionListQuery.shape);

const listActions = createRoute({
  method: 'get',
  path: '/api/telemetry/actions',
  tags: ['telemetry'],
  summary: 'Product actions of readable projects, newest first',
  description:
    'Newest first by `occurred_at`, then `id`. A bare array by default; with `pagination=cursor`, `{actions, next_cursor}`. Follow `next_cursor` until it is `null`, repeating every filter.',
  security: bearerSecurity,
  request: { query: ActionListQuery },
  responses: {
    200: jsonContent(z.union([z.array(ActionSchema), ActionPageSchema]), 'Matching actions.'),
    ...errorResponses(401, 404, 422),
  },
});

export function registerActionRoutes(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  const auth = requireAccount(deps, { session: false });
  app.openapi(
    { ...listActions, middleware: [auth, strictQuery(ACTION_LIST_KEYS)] as const },
    async (c) => {
      const q = c.get('strictQuery');
      const r = parseTimeListQuery(q, deps.now());
      const distinctId = exactFilter(q, 'distinct_id');
      const projectIds = await projectsInScope(deps, c.get('principal').accountId, r.scope);
      // One row more than the page tells whether another page exists.
      const rows = await deps.store.actions.list({
        projectIds,
        name: r.name,
        distinctId,
        serviceName: r.serviceName,
        release: r.release,
        environment: r.environment,
        since: r.since,
        after: r.after,
        limit: r.mode.mode === 'cursor' ? r.limit + 1 : r.limit,
      });
      return c.json(timeIdPage(rows, r.limit, r.mode, 'actions', actionView), 200);
    },
  );
}
