import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Deps } from '../../core/deps';
import type { AppEnv } from '../../http/app-env';
import { registerAlertIncidentRoutes } from './alert-incidents';
import { registerAlertNotificationRoutes } from './alert-notifications';
import { registerAlertPreviewRoute } from './alert-preview';
import { registerAlertRuleRoutes } from './alert-rules';
import { registerAlertWebhookRoutes } from './alert-webhooks';
import { registerIssueSnoozeRoutes } from './issue-snoozes';

/** Alerting (issue 29, beyond the spec, in its style): docs/alerts.md. */
export function registerAlertRoutes(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  registerAlertRuleRoutes(app, deps);
  registerAlertPreviewRoute(app, deps);
  registerAlertIncidentRoutes(app, deps);
  registerAlertNotificationRoutes(app, deps);
  registerAlertWebhookRoutes(app, deps);
  registerIssueSnoozeRoutes(app, deps);
}
