import { z } from 'zod';
import type { ChartRange, MetricGroupBy } from '../../api/queries/metrics';
import {
  parseProjectScope,
  readableScope,
  isUuid,
  type ProjectScope,
  type ProjectScopeSearch,
} from '../../lib/project-scope';
import { SERIES_INTERVALS, type IntervalChoice } from '../../lib/series-window';
import { parseTimeRange, type TimeRangeSearch } from '../../lib/time-range';

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
  metric: z.string().min(1).max(512).optional().catch(undefined),
  group_by: z.enum(GROUP_BY_OPTIONS).optional().catch(undefined),
  series_limit: z.number().int().min(1).max(MAX_SERIES_LIMIT).optional().catch(undefined),
  interval: z
    .enum(['auto', ...SERIES_INTERVALS])
    .optional()
    .catch(undefined),
  /** Volume streams shown, comma-separated (absent: all; `none`: none). */
  streams: z.string().max(64).optional().catch(undefined),
  /** The explorer's project when the layout's scope is every project or several. */
  metric_project: z.string().refine(isUuid).optional().catch(undefined),
});

export type MetricsSearch = z.infer<typeof metricsSearchSchema>;
export type MetricsPageSearch = MetricsSearch & ProjectScopeSearch & TimeRangeSearch;

/** The range of the charts' reads as the URL holds it (`24h` by default). */
export function chartRangeOf(search: TimeRangeSearch): ChartRange {
  const range = parseTimeRange(search);
  if (range.kind === 'relative') return { since: `${range.amount}${range.unit}` };
  return range.until === undefined
    ? { since: range.since }
    : { since: range.since, until: range.until };
}

export const intervalOf = (search: MetricsSearch): IntervalChoice => search.interval ?? 'auto';

/** The layout's scope, kept to the projects the account can read. */
export function pageScope(
  search: ProjectScopeSearch,
  readableIds: readonly string[],
): ProjectScope {
  return readableScope(parseProjectScope(search), readableIds);
}

/**
 * The one project the explorer reads: the layout's when it selects exactly one, otherwise the
 * page's `metric_project` when it is readable (and inside a selected set). `null` asks the
 * person to pick one.
 */
export function explorerProject(
  search: MetricsPageSearch,
  readableIds: readonly string[],
): string | null {
  const scope = pageScope(search, readableIds);
  if (scope.kind === 'projects' && scope.ids.length === 1) return scope.ids[0] ?? null;
  const picked = search.metric_project;
  if (picked === undefined || !readableIds.includes(picked)) return null;
  if (scope.kind === 'projects' && !scope.ids.includes(picked)) return null;
  return picked;
}

/** The projects the explorer's picker offers: the selected set, or every readable project. */
export function explorerChoices<T extends { id: string }>(
  search: MetricsPageSearch,
  projects: readonly T[],
): T[] {
  const scope = pageScope(
    search,
    projects.map((p) => p.id),
  );
  return scope.kind === 'projects'
    ? projects.filter((p) => scope.ids.includes(p.id))
    : [...projects];
}

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
