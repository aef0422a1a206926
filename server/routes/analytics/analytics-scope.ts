import { analyticsFilter, parseAnalyticsRange } from '../../domain/read-rules/analytics-range';
import type { Deps } from '../../core/deps';

/** The fields of every analytics body that choose what is read (shared analytics rules). */
export type AnalyticsScopeInput = {
  project_id: string;
  since: string;
  until?: string | undefined;
  service_name?: string | undefined;
  release?: string | undefined;
  environment?: string | undefined;
};

/**
 * The one project, the resolved range and the trimmed exact filters of an analytics body,
 * the store query they make, and whether the account reads the project: an unreadable one
 * reads nothing and answers the same shape with zero counts.
 */
export async function resolveAnalyticsScope(
  deps: Deps,
  accountId: string,
  body: AnalyticsScopeInput,
) {
  const range = parseAnalyticsRange(body, deps.now());
  const serviceName = analyticsFilter('service_name', body.service_name);
  const release = analyticsFilter('release', body.release);
  const environment = analyticsFilter('environment', body.environment);
  const projectId = body.project_id.toLowerCase();
  const readable = await deps.store.projects.readable(accountId, projectId);
  return {
    range,
    projectId,
    readable,
    serviceName,
    release,
    environment,
    query: { projectId, from: range.since, to: range.until, environment, serviceName, release },
  };
}
