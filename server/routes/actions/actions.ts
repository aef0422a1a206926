import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { exactFilter } from '../../domain/read-rules/exact-filter';
import { requireAccount } from '../../http/account-auth';
import type { AppEnv } from '../../http/app-env';
import type { Deps } from '../../core/deps';
import { bearerSecurity, errorResponses, jsonContent } from '../../http/openapi-shared';
import { projectsInScope } from '../../http/readable-projects';
import { EXACT_FACETS, key } from '../../http/query-keys';
import { readQuery } from '../../http/read-query';
import { strictQuery } from '../../http/strict-query';
import { timeIdPage } from '../../http/time-id-page';
import { actionView } from '../../views/telemetry-views';
import { ActionPageSchema, ActionSchema } from './action-schema';
import { parseTimeListQuery, timeListKeys } from './time-list-query';

const actionListQuery = (now: () => number) =>
  readQuery(
    { ...timeListKeys('actions'), distinct_id: key('Exact distinct id.', EXACT_FACETS) },
    (q) => ({ ...parseTimeListQuery(q, now()), distinctId: exactFilter(q, 'distinct_id') }),
  );

const listActions = (now: () => number) =>
  createRoute({
    method: 'get',
    path: '/api/telemetry/actions',
    tags: ['telemetry'],
    summary: 'Product actions of readable projects, newest first',
    description:
      'Newest first by `occurred_at`, then `id`. A bare array by default; with `pagination=cursor`, `{actions, next_cursor}`. Follow `next_cursor` until it is `null`, repeating every filter.',
    security: bearerSecurity,
    request: { query: actionListQuery(now) },
    responses: {
      200: jsonContent(z.union([z.array(ActionSchema), ActionPageSchema]), 'Matching actions.'),
      ...errorResponses(401, 404, 422),
    },
  });

export function registerActionRoutes(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  const auth = requireAccount(deps, { session: false });
  const route = listActions(deps.now);
  app.openapi(
    { ...route, middleware: [auth, strictQuery(route.request.query)] as const },
    async (c) => {
      const r = c.req.valid('query');
      const projectIds = await projectsInScope(deps, c.get('principal').accountId, r.scope);
      // One row more than the page tells whether another page exists.
      const rows = await deps.store.actions.list({
        projectIds,
        name: r.name,
        distinctId: r.distinctId,
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
