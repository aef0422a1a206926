import { z } from 'zod/mini';
import { lenient, searchEnum, searchInt, searchUuid } from '../../lib/search-fields';
import type { ChartRange, MetricGroupBy } from '../../api/queries/metrics';
import {
  parseProjectScope,
  readableScope,
  type ProjectScope,
  type ProjectScopeSearch,
} from '../../lib/project-scope';
import { SERIES_INTERVALS, type IntervalChoice } from '../../lib/series-window';
import { oneProjectChoices, oneProjectOf } from '../../lib/one-project';
import { readRangeOf } from '../../lib/read-range';
import type { TimeRangeSearch } from '../../lib/time-range';

export const GROUP_BY_OPTIONS = ['none', 'service_name', 'release', 'environment'] as const;

export const GROUP_BY_LABELS: Record<MetricGroupBy, string> = {
  none: 'None',
  service_name: 'Service',
  release: 'Release',
  environment: 'Environment',
};

export const DEFAULT_SERIES_LIMIT = 10;
export const MAX_SERIES_LIMIT = 20;

/**
 * The metrics page's own search (beside the layout's `project`/`projects`/`since`/`until`):
 * the metric and how it is split, the bucket interval of both charts, the volume streams
 * shown, and the project the explorer reads when the layout's scope is not one project.
 * Unreadable values fall back to the defaults.
 */
export const metricsSearchSchema = z.object({
  metric: lenient(z.string().check(z.minLength(1), z.maxLength(512))),
  group_by: searchEnum(GROUP_BY_OPTIONS),
  series_limit: searchInt(1, MAX_SERIES_LIMIT),
  interval: searchEnum(['auto', ...SERIES_INTERVALS]),
  /** Volume streams shown, comma-separated (absent: all; `none`: none). */
  streams: lenient(z.string().check(z.maxLength(64))),
  /** The explorer's project when the layout's scope is every project or several. */
  metric_project: searchUuid(),
});

export type MetricsSearch = z.infer<typeof metricsSearchSchema>;
export type MetricsPageSearch = MetricsSearch & ProjectScopeSearch & TimeRangeSearch;

/** The range of the charts' reads as the URL holds it (`24h` by default). */
export const chartRangeOf: (search: TimeRangeSearch) => ChartRange = readRangeOf;

export const intervalOf = (search: MetricsSearch): IntervalChoice => search.interval ?? 'auto';

/** The layout's scope, kept to the projects the account can read. */
export function pageScope(
  search: ProjectScopeSearch,
  readableIds: readonly string[],
): ProjectScope {
  return readableScope(parseProjectScope(search), readableIds);
}

/** The one project the explorer reads (see `oneProjectOf`); `null` asks for a pick. */
export function explorerProject(
  search: MetricsPageSearch,
  readableIds: readonly string[],
): string | null {
  return oneProjectOf(search, search.metric_project, readableIds);
}

/** The projects the explorer's picker offers: the selected set, or every readable project. */
export const explorerChoices = oneProjectChoices;

/**
 * The volume read's project: the one selected project, or none (every readable project).
 * The route takes one project or none, so a set of several reads every project; `note` says so.
 */
export function volumeScope(
  search: ProjectScopeSearch,
  readableIds: readonly string[],
): { project_id?: string; selectedCount: number } {
  const scope = pageScope(search, readableIds);
  if (scope.kind === 'all') return { selectedCount: 0 };
  if (scope.ids.length === 1) return { project_id: scope.ids[0] as string, selectedCount: 1 };
  return { selectedCount: scope.ids.length };
}
