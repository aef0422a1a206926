import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { requireAccount } from '../../http/account-auth';
import type { AppEnv } from '../../http/app-env';
import type { Deps } from '../../core/deps';
import { bearerSecurity, errorResponses, jsonContent } from '../../http/openapi-shared';
import { projectsInScope } from '../../http/readable-projects';
import { readQuery } from '../../http/read-query';
import { strictQuery } from '../../http/strict-query';
import { timeIdPage } from '../../http/time-id-page';
import { metricView } from '../../views/telemetry-views';
import { MetricPageSchema, MetricSampleSchema } from './metric-schema';
import { registerMetricNamesRoute } from './metric-names';
import { registerMetricSeriesRoute } from './metric-series';
import { parseTimeListQuery, timeListKeys } from '../actions/time-list-query';

const metricListQuery = (now: () => number) =>
  readQuery(timeListKeys('metrics'), (q) => parseTimeListQuery(q, now()));

const listMetrics = (now: () => number) =>
  createRoute({
    method: 'get',
    path: '/api/telemetry/metrics',
    tags: ['telemetry'],
    summary: 'Metric samples of readable projects, newest first',
    description:
      'Each item is one sample; the number of samples is not an event or user count. Newest first by `occurred_at`, then `id`. ' +
      'A bare array by default; with `pagination=cursor`, `{metrics, next_cursor}`.',
    security: bearerSecurity,
    request: { query: metricListQuery(now) },
    responses: {
      200: jsonContent(
        z.union([z.array(MetricSampleSchema), MetricPageSchema]),
        'Matching metric samples.',
      ),
      ...errorResponses(401, 404, 422),
    },
  });

export function registerMetricRoutes(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  registerMetricSeriesRoute(app, deps);
  registerMetricNamesRoute(app, deps);
  const auth = requireAccount(deps, { session: false });
  const route = listMetrics(deps.now);
  app.openapi(
    { ...route, middleware: [auth, strictQuery(route.request.query)] as const },
    async (c) => {
      const r = c.req.valid('query');
      const projectIds = await projectsInScope(deps, c.get('principal').accountId, r.scope);
      const rows = await deps.store.metrics.list({
        projectIds,
        name: r.name,
        serviceName: r.serviceName,
        release: r.release,
        environment: r.environment,
        since: r.since,
        after: r.after,
        limit: r.mode.mode === 'cursor' ? r.limit + 1 : r.limit,
      });
      return c.json(timeIdPage(rows, r.limit, r.mode, 'metrics', metricView), 200);
    },
  );
}
