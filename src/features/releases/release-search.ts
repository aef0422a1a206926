import { z } from 'zod/mini';
import { lenient, searchText } from '../../lib/search-fields';
import type { ReleaseListFilters } from '../../api/queries/releases';
import {
  parseProjectScope,
  readableScope,
  scopeQuery,
  type ProjectScopeSearch,
} from '../../lib/project-scope';
import type { TimeRangeSearch } from '../../lib/time-range';

/** A caller-chosen deployment id, as the service accepts it in a path. */
export const DEPLOYMENT_ID = /^[A-Za-z0-9][A-Za-z0-9._~-]{0,127}$/;

/**
 * The release page's own search (beside the layout's `project`/`projects`/`since`/`until`):
 * the row is the path's release with this `environment` and `service` in the layout's
 * `project`; `deployment` highlights one deployment of the timeline.
 */
export const releaseSearchSchema = z.object({
  environment: searchText(256),
  service: searchText(256),
  deployment: lenient(z.string().check(z.regex(DEPLOYMENT_ID))),
});

export type ReleaseSearch = z.infer<typeof releaseSearchSchema>;

export type ReleasePageSearch = ReleaseSearch & ProjectScopeSearch & TimeRangeSearch;

/**
 * The rows the page reads for the path's release: in the layout's scope (`project`, the
 * way links name the row), with the `environment` and `service` when given. Every row of the
 * release is read (no `since`): a release page does not depend on the header's range.
 */
export function releaseRowFiltersOf(
  release: string,
  search: ReleasePageSearch,
  readableProjectIds: readonly string[],
): ReleaseListFilters {
  const scope = readableScope(parseProjectScope(search), readableProjectIds);
  const filters: ReleaseListFilters = { ...scopeQuery(scope), release };
  if (search.environment) filters.environment = search.environment;
  if (search.service) filters.service_name = search.service;
  return filters;
}

/** Only what names the row reloads it (not the highlighted deployment nor the range). */
export function rowSearchOf(search: ReleasePageSearch): ReleasePageSearch {
  return {
    project: search.project,
    projects: search.projects,
    environment: search.environment,
    service: search.service,
  };
}
