import type { ChartDeploymentParams, Deployment } from '../../api/queries/releases';

/**
 * What a chart covers, as far as deployments go: its projects (one, a set, or every readable
 * one) and, where the chart is for one service, release or environment, that too. A value left
 * out matches every deployment.
 */
export type DeploymentScope = {
  /** The chart's projects; undefined for every project the account can read. */
  projectIds?: readonly string[] | undefined;
  serviceName?: string | undefined;
  release?: string | undefined;
  environment?: string | undefined;
};

/** A chart's range as the URL holds it: `since` compact (`24h`) or RFC3339, `until` or now. */
export type DeploymentRange = { since: string; until?: string | undefined };

export type DeploymentMarker = {
  /** Unique on the chart: deployment ids are unique per project only. */
  key: string;
  /** Where it is drawn (epoch ms), inside the axis's domain. */
  x: number;
  /** True when its finish time was outside the drawn range and the marker sits on the edge. */
  clamped: boolean;
  failed: boolean;
  deployment: Deployment;
};

/**
 * The one read a chart's deployments come from: its range, and its project when it has
 * exactly one (the route filters by one project or none; a set is narrowed afterwards).
 */
export function deploymentReadOf(
  range: DeploymentRange,
  scope: DeploymentScope,
): ChartDeploymentParams {
  const [only, ...rest] = scope.projectIds ?? [];
  return {
    since: range.since,
    ...(range.until !== undefined ? { until: range.until } : {}),
    ...(only !== undefined && rest.length === 0 ? { project_id: only } : {}),
  };
}

/** The deployments of the chart's scope: its projects, and its service, release, environment. */
export function deploymentsInScope(
  deployments: readonly Deployment[],
  scope: DeploymentScope,
): Deployment[] {
  const projects = scope.projectIds === undefined ? null : new Set(scope.projectIds);
  return deployments.filter(
    (d) =>
      (projects === null || projects.has(d.project_id)) &&
      (scope.serviceName === undefined || d.service_name === scope.serviceName) &&
      (scope.release === undefined || d.release === scope.release) &&
      (scope.environment === undefined || d.environment === scope.environment),
  );
}

/**
 * One marker per deployment, at its finish time (the time the list compares), oldest first,
 * clamped to the chart's range so a deployment read for the range never falls off the axis.
 */
export function deploymentMarkers(
  deployments: readonly Deployment[],
  domain: readonly [number, number],
): DeploymentMarker[] {
  const [from, to] = domain;
  const seen = new Set<string>();
  const markers: DeploymentMarker[] = [];
  for (const d of deployments) {
    const key = `${d.project_id}/${d.deployment_id}`;
    const at = Date.parse(d.finished_at);
    if (seen.has(key) || !Number.isFinite(at)) continue;
    seen.add(key);
    const x = Math.min(Math.max(at, from), to);
    markers.push({ key, x, clamped: x !== at, failed: d.status === 'failed', deployment: d });
  }
  return markers.sort((a, b) => a.x - b.x || (a.key < b.key ? -1 : 1));
}

/** A marker's words: `checkout-api 2.14.1 → production, failed`. */
export function deploymentLabel(d: Deployment): string {
  return `${d.service_name} ${d.release} → ${d.environment}${d.status === 'failed' ? ', failed' : ''}`;
}

/** The release page of a deployment, with the row and the deployment highlighted. */
export function releaseLinkOf(d: Deployment) {
  return {
    to: '/releases/$release' as const,
    params: { release: d.release },
    search: {
      project: d.project_id,
      projects: undefined,
      environment: d.environment,
      service: d.service_name,
      deployment: d.deployment_id,
    },
  };
}

/**
 * Where markers go on a category axis of time buckets (period bars): the label of the bucket
 * holding each marker's time, that is the last one starting at or before it; undefined before
 * the first. Buckets come oldest first.
 */
export function bucketPlacement(
  buckets: readonly { start: number; label: string }[],
): (marker: DeploymentMarker) => string | undefined {
  return (marker) => {
    let label: string | undefined;
    for (const b of buckets) {
      if (b.start > marker.x) break;
      label = b.label;
    }
    return label;
  };
}
