import type { Deployment } from '../../api/queries/releases';
import type { ReleaseIdentity } from './release-view';

const time = (iso: string) => Date.parse(iso);

/** Newest finish first (the service's order), then the id, so ties are stable. */
export function byFinishDesc(a: Deployment, b: Deployment): number {
  return (
    time(b.finished_at) - time(a.finished_at) ||
    (a.deployment_id < b.deployment_id ? 1 : a.deployment_id > b.deployment_id ? -1 : 0)
  );
}

/**
 * The latest deployment (by finish) of exactly this project, release, environment and
 * service, whatever its status; `null` when none was recorded.
 */
export function latestDeploymentOf(
  row: ReleaseIdentity,
  deployments: readonly Deployment[],
): Deployment | null {
  let latest: Deployment | null = null;
  for (const d of deployments) {
    if (
      d.project_id !== row.project_id ||
      d.release !== row.release ||
      d.environment !== row.environment ||
      d.service_name !== row.service_name
    )
      continue;
    if (latest === null || byFinishDesc(d, latest) < 0) latest = d;
  }
  return latest;
}

/** Indexes deployments by row key for a list of rows (one pass over the history). */
export function latestDeploymentsByRow(
  deployments: readonly Deployment[],
  keyOf: (row: ReleaseIdentity) => string,
): Map<string, Deployment> {
  const map = new Map<string, Deployment>();
  for (const d of deployments) {
    const key = keyOf(d);
    const current = map.get(key);
    if (current === undefined || byFinishDesc(d, current) < 0) map.set(key, d);
  }
  return map;
}

/** Every deployment of one service in one environment of one project, newest finish first. */
export function serviceTimeline(
  scope: Pick<ReleaseIdentity, 'project_id' | 'environment' | 'service_name'>,
  deployments: readonly Deployment[],
): Deployment[] {
  return deployments
    .filter(
      (d) =>
        d.project_id === scope.project_id &&
        d.environment === scope.environment &&
        d.service_name === scope.service_name,
    )
    .sort(byFinishDesc);
}
