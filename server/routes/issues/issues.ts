import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../http/app-env';
import type { Deps } from '../../core/deps';
import { registerIssueActivityRoute } from './issue-activity';
import { registerIssueAssigneesRoute } from './issue-assignees';
import { registerIssueBulkRoute, registerIssueChangeRoutes } from './issue-changes';
import { registerIssueHistogramsRoute } from './issue-histograms';
import { registerIssueNotificationRoutes } from './issue-notifications';
import { registerIssueOwnersRoute, registerIssueOwnershipRoutes } from './issue-ownership';
import { registerIssueReadRoutes } from './issue-reads';

/** Every issue route: reads, changes, rules, assignees, ownership, owners, activity and notifications. */
export function registerIssueRoutes(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  // Fixed paths first: `/api/telemetry/issues/{issue_id}` would otherwise take `assignees`,
  // `notifications`, `ownership`, `bulk` and `histograms` as (invalid) issue ids.
  registerIssueAssigneesRoute(app, deps);
  registerIssueHistogramsRoute(app, deps);
  registerIssueNotificationRoutes(app, deps);
  registerIssueBulkRoute(app, deps);
  registerIssueOwnershipRoutes(app, deps);
  registerIssueReadRoutes(app, deps);
  registerIssueChangeRoutes(app, deps);
  registerIssueActivityRoute(app, deps);
  registerIssueOwnersRoute(app, deps);
}
