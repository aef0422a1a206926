import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { CoverageBuilder } from '../../domain/bundle-coverage';
import { BUNDLE_LIMITS as L, newCounter } from '../../domain/investigation-bounds';
import { requireAccount } from '../../http/account-auth';
import { fail } from '../../core/api-error';
import type { AppEnv } from '../../http/app-env';
import type { Deps } from '../../core/deps';
import { bearerSecurity, errorResponses, jsonContent } from '../../http/openapi-shared';
import { strictQuery } from '../../http/strict-query';
import { releaseView } from '../../views/release-view';
import { subject } from '../../views/investigation-views';
import { DeploymentSchema, ReleaseRowSchema, bundleHead, bundleTail } from './investigation-schema';
import { bundle, deploymentsSection, subjectSection } from './investigation-sections';
import { MetricSeriesSchema, readMetricSeries, seriesQuery } from '../metrics/metric-series';

const MetricInvestigationSchema = z
  .object({
    ...bundleHead,
    series: MetricSeriesSchema,
    deployments: z.array(DeploymentSchema),
    releases: z.array(ReleaseRowSchema),
    ...bundleTail,
  })
  .openapi('MetricInvestigation');

const investigationRoute = (now: () => number) =>
  createRoute({
    method: 'get',
    path: '/api/telemetry/metrics/investigation',
    tags: ['investigations'],
    summary: 'Bounded evidence bundle of one metric over a range',
    description:
      'The metric series exactly as `GET /api/telemetry/metrics/series` answers the same query (same keys, same validation: `project_id`, `name`, `since` required, at most 31 days and 500 buckets, `series_limit` 1 to 20, `response_version` 1), the deployments of the project that finished in the range, and the release rows seen in the range (both narrowed by `service_name`, `release`, `environment` when sent). An unreadable project is `404`.',
    security: bearerSecurity,
    request: { query: seriesQuery(now) },
    responses: {
      200: jsonContent(MetricInvestigationSchema, 'The bundle.'),
      ...errorResponses(401, 404, 422),
    },
  });

export function registerMetricInvestigationRoute(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  const auth = requireAccount(deps, { session: false });
  const route = investigationRoute(deps.now);
  app.openapi(
    { ...route, middleware: [auth, strictQuery(route.request.query)] as const },
    async (c) => {
      const r = c.req.valid('query');
      if (!(await deps.store.projects.readable(c.get('principal').accountId, r.projectId)))
        throw fail.notFound('project not found');
      const series = await readMetricSeries(deps, r);

      const cov = new CoverageBuilder();
      const cut = newCounter();
      const subj = subject(
        'metric',
        {
          id: r.name,
          project_id: r.projectId,
          name: r.name,
          service_name: r.serviceName,
          environment: r.environment,
          release: r.release,
        },
        cut,
      );
      subjectSection(cov, cut);
      cov.add('series', series.series.length, {
        limit: r.seriesLimit,
        more: series.truncated_series,
      });
      if (series.kind === null) cov.unavailable('samples', 'no sample of this metric in the range');

      const deployments = await deploymentsSection(
        deps,
        {
          projectId: r.projectId,
          release: r.release,
          environment: r.environment,
          serviceName: r.serviceName,
          finishedFrom: r.window.from,
          finishedTo: r.window.to - 1,
        },
        cov,
        'no deployment of the project finished in the range',
      );
      const rel = await deps.store.investigations.releaseRows({
        projectId: r.projectId,
        release: r.release,
        environment: r.environment,
        serviceName: r.serviceName,
        from: r.window.from,
        to: r.window.to,
        limit: L.releases,
      });
      cov.add('releases', rel.rows.length, {
        limit: L.releases,
        more: rel.total - rel.rows.length,
      });
      return c.json(
        bundle(subj, { series, deployments, releases: rel.rows.map(releaseView) }, cov, []),
        200,
      );
    },
  );
}
