import type { VolumeParams } from '../../api/queries/metrics';
import type { ReadRange } from '../../lib/read-range';
import type { SeriesInterval } from '../../lib/series-window';
import type { DeploymentScope } from '../../widgets/deployment-marks/deployment-markers';
import { STREAMS, type VolumeChartData } from '../../widgets/time-series/volume-chart-data';
import type { ReleaseIdentity } from './release-view';

/**
 * The volume read of one release row: its project, filtered to exactly its release,
 * environment and service, over the header's range, in the compact chart's buckets.
 */
export function releaseVolumeParams(
  row: ReleaseIdentity,
  range: ReadRange,
  interval: SeriesInterval,
): VolumeParams {
  return {
    ...range,
    project_id: row.project_id,
    interval,
    service_name: row.service_name,
    release: row.release,
    environment: row.environment,
  };
}

/**
 * The deployments the row's chart marks: this release of this service to this environment,
 * in its project. They are the timeline's "this release" entries that finished in the range.
 */
export function releaseDeploymentScope(row: ReleaseIdentity): DeploymentScope {
  return {
    projectIds: [row.project_id],
    serviceName: row.service_name,
    release: row.release,
    environment: row.environment,
  };
}

/** Whether the range holds none of the row's telemetry (every stream's total is zero). */
export function isEmptyVolume(chart: Pick<VolumeChartData, 'totals'>): boolean {
  return STREAMS.every((s) => chart.totals[s].events === 0);
}
