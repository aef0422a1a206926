import type { SeriesParams, VolumeParams } from '../../api/queries/metrics';
import type { ChartDeploymentParams } from '../../api/queries/releases';
import {
  deploymentReadOf,
  type DeploymentScope,
} from '../../widgets/deployment-marks/deployment-markers';
import { chartWindowOf, type WindowCheck } from '../../lib/series-window';
import {
  DEFAULT_SERIES_LIMIT,
  explorerProject,
  intervalOf,
  volumeScope,
  type MetricsPageSearch,
} from './metrics-search';

/** Volume reads one project or every readable one; a set of at most this many is summed. */
export const MAX_SUMMED_PROJECTS = 10;

export type VolumePlan = {
  /** One read, or one per selected project (summed by `sumVolumes`). */
  reads: VolumeParams[];
  /** The read of the deployments shown on the volume charts. */
  deployments: ChartDeploymentParams;
  /** Which of them the charts mark: the charts' projects. */
  deploymentScope: DeploymentScope;
  /** What the charts count, in words. */
  scope: 'one' | 'set' | 'all' | 'all-instead-of-set';
  selectedCount: number;
};

export type ExplorerPlan = {
  project: string | null;
  /** The range's start as the name catalog takes it (each project's, when choosing one). */
  namesSince: string;
  names: { project_id: string; since: string } | null;
  series: SeriesParams | null;
  deployments: ChartDeploymentParams | null;
  deploymentScope: DeploymentScope;
};

export type MetricsReads = {
  /** The range as epoch ms at planning time (`until` is now for an open range). */
  bounds: { since: number; until: number };
  window: WindowCheck;
  volume: VolumePlan;
  explorer: ExplorerPlan;
};

/**
 * Every read the page makes for a search, planned once for the loader and the page alike.
 * The window (31 days, 500 buckets) is checked first with the range as it stands `now`: a
 * window the service would refuse is explained and not sent, so no series or volume read is
 * planned for it (deployments and names are still read).
 */
export function metricsReads(
  search: MetricsPageSearch,
  readableIds: readonly string[],
  now: number,
): MetricsReads {
  const interval = intervalOf(search);
  const { range, bounds, window } = chartWindowOf(search, interval, now);

  const vs = volumeScope(search, readableIds);
  let volume: VolumePlan;
  if (vs.project_id !== undefined) {
    volume = {
      reads: [{ ...range, project_id: vs.project_id, interval }],
      deployments: deploymentReadOf(range, { projectIds: [vs.project_id] }),
      deploymentScope: { projectIds: [vs.project_id] },
      scope: 'one',
      selectedCount: 1,
    };
  } else if (vs.selectedCount > 1) {
    const ids = readableIds.filter((id) => pageSet(search).includes(id));
    const summed = ids.length <= MAX_SUMMED_PROJECTS;
    volume = {
      reads: summed
        ? ids.map((id) => ({ ...range, project_id: id, interval }))
        : [{ ...range, interval }],
      deployments: deploymentReadOf(range, summed ? { projectIds: ids } : {}),
      deploymentScope: summed ? { projectIds: ids } : {},
      scope: summed ? 'set' : 'all-instead-of-set',
      selectedCount: ids.length,
    };
  } else {
    volume = {
      reads: [{ ...range, interval }],
      deployments: deploymentReadOf(range, {}),
      deploymentScope: {},
      scope: 'all',
      selectedCount: 0,
    };
  }
  if (!window.ok) volume = { ...volume, reads: [] };

  const project = explorerProject(search, readableIds);
  const explorer: ExplorerPlan = {
    project,
    namesSince: range.since,
    names: project ? { project_id: project, since: range.since } : null,
    series:
      project && search.metric && window.ok
        ? {
            ...range,
            project_id: project,
            name: search.metric,
            interval,
            group_by: search.group_by ?? 'none',
            series_limit: search.series_limit ?? DEFAULT_SERIES_LIMIT,
          }
        : null,
    deployments: project ? deploymentReadOf(range, { projectIds: [project] }) : null,
    deploymentScope: project ? { projectIds: [project] } : {},
  };
  return { bounds, window, volume, explorer };
}

function pageSet(search: MetricsPageSearch): string[] {
  return search.projects?.split(',') ?? [];
}
