import { z } from 'zod/mini';
import { searchText } from '../../lib/search-fields';
import type { ReleaseListFilters } from '../../api/queries/releases';
import {
  parseProjectScope,
  readableScope,
  scopeQuery,
  type ProjectScopeSearch,
} from '../../lib/project-scope';
import { parseTimeRange, type TimeRangeSearch } from '../../lib/time-range';

/**
 * The release list's own search (beside the layout's scope and range): exact service,
 * release and environment. Invalid values fall back to none instead of failing the page.
 */
export const releasesSearchSchema = z.object({
  service: searchText(256),
  release: searchText(256),
  environment: searchText(256),
});

export type ReleasesSearch = z.infer<typeof releasesSearchSchema>;
export type ReleasesPageSearch = ReleasesSearch & ProjectScopeSearch & TimeRangeSearch;

/**
 * The list query for a search, in the projects the account can read. The route compares
 * `since` with a row's `last_seen_at` and has no `until`, so an absolute range's end is not
 * sent (the page says so).
 */
export function releaseFiltersOf(
  search: ReleasesPageSearch,
  readableProjectIds: readonly string[],
): ReleaseListFilters {
  const scope = readableScope(parseProjectScope(search), readableProjectIds);
  const range = parseTimeRange(search);
  const since = range.kind === 'relative' ? `${range.amount}${range.unit}` : range.since;
  const filters: ReleaseListFilters = { ...scopeQuery(scope), since };
  if (search.service) filters.service_name = search.service;
  if (search.release) filters.release = search.release;
  if (search.environment) filters.environment = search.environment;
  return filters;
}

export function narrowingCount(search: ReleasesSearch): number {
  return [search.service, search.release, search.environment].filter((v) => v !== undefined).length;
}

export function clearedReleaseFilters(search: ReleasesPageSearch): ReleasesPageSearch {
  return {
    project: search.project,
    projects: search.projects,
    since: search.since,
    until: search.until,
  };
}
