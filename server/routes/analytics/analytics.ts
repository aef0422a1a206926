import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../http/app-env';
import type { Deps } from '../../core/deps';
import { registerFunnelRoute } from './analytics-funnel';
import { registerLifecycleRoute } from './analytics-lifecycle';
import { registerAnalyticsReadRoutes } from './analytics-reads';
import { registerPathsRoute } from './analytics-paths';
import { registerRetentionRoute } from './analytics-retention';
import { registerSegmentsRoute } from './analytics-segments';

/** Product analytics (spec "Product analytics"): one project, one range of at most 31 days. */
export function registerAnalyticsRoutes(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  registerFunnelRoute(app, deps);
  registerAnalyticsReadRoutes(app, deps);
  registerRetentionRoute(app, deps);
  registerPathsRoute(app, deps);
  registerLifecycleRoute(app, deps);
  registerSegmentsRoute(app, deps);
}
