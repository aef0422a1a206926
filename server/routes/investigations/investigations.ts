import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../http/app-env';
import type { Deps } from '../../core/deps';
import { registerActionInvestigationRoute } from './action-investigation';
import { registerCorrectionVerificationRoute } from './correction-verification';
import { registerIssueInvestigationRoute } from './issue-investigation';
import { registerLogInvestigationRoute } from './log-investigation';
import { registerMetricInvestigationRoute } from './metric-investigation';
import { registerReleaseInvestigationRoute } from './release-investigation';
import { registerTraceInvestigationRoutes } from './trace-investigation';

/** The investigation bundles (spec "Investigations") and correction verification. */
export function registerInvestigationRoutes(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  registerIssueInvestigationRoute(app, deps);
  registerCorrectionVerificationRoute(app, deps);
  registerTraceInvestigationRoutes(app, deps);
  registerLogInvestigationRoute(app, deps);
  registerActionInvestigationRoute(app, deps);
  registerMetricInvestigationRoute(app, deps);
  registerReleaseInvestigationRoute(app, deps);
}
