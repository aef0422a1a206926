import { z } from 'zod/mini';
import { lenient, searchUuid } from '../../lib/search-fields';
import type { LogListFilters, Severity } from '../../api/queries/logs';
import { logQueryOfView, logViewKeys } from '../../lib/log-view-keys';
import { isPointer } from '../../lib/json-pointer';
import {
  parseProjectScope,
  readableScope,
  scopeQuery,
  type ProjectScopeSearch,
} from '../../lib/project-scope';
import { parseTimeRange, type TimeRangeSearch } from '../../lib/time-range';
import { severityLabels as sharedSeverityLabels } from '../../ui/severity-badge';

/** At most this many attribute columns (each is a path the person chose). */
export const MAX_COLUMNS = 6;

/**
 * The logs page's own search (beside the layout's `project`/`projects`/`since`/`until`).
 * Everything a person sets is here, so a view is a link. Invalid values fall back to the
 * default instead of failing the page (`logViewKeys`).
 */
export const logsSearchSchema = z.object({
  ...logViewKeys,
  columns: lenient(
    z.array(z.string().check(z.refine(isPointer))).check(z.minLength(1), z.maxLength(MAX_COLUMNS)),
  ),
  log: searchUuid(),
});

export type LogsSearch = z.infer<typeof logsSearchSchema>;
export type LogsPageSearch = LogsSearch & ProjectScopeSearch & TimeRangeSearch;

/** The filters that decide which logs are listed (not the selection or the columns). */
export type ListSearch = Omit<LogsPageSearch, 'log' | 'columns'>;

export function listSearchOf(search: LogsPageSearch): ListSearch {
  return {
    project: search.project,
    projects: search.projects,
    since: search.since,
    until: search.until,
    severity: search.severity,
    status: search.status,
    q: search.q,
    service: search.service,
    release: search.release,
    environment: search.environment,
    trace_id: search.trace_id,
    filters: search.filters,
  };
}

/** The range as the URL means it: `24h` by default, a compact or RFC3339 `since`, an `until`. */
export function rangeOf(search: TimeRangeSearch): { since: string; until?: string } {
  const range = parseTimeRange(search);
  if (range.kind === 'relative') return { since: `${range.amount}${range.unit}` };
  return range.until === undefined
    ? { since: range.since }
    : { since: range.since, until: range.until };
}

/** The list query's key and values for a search, in the projects the account can read. */
export function listFiltersOf(
  search: ListSearch,
  readableProjectIds: readonly string[],
): LogListFilters {
  const scope = readableScope(parseProjectScope(search), readableProjectIds);
  const filters: LogListFilters = {
    ...scopeQuery(scope),
    ...rangeOf(search),
    ...logQueryOfView(search),
  };
  if (search.status && search.status !== 'active') filters.status = search.status;
  if (search.trace_id) filters.trace_id = search.trace_id;
  return filters;
}

/** Whether anything beyond scope and range narrows the list (for the empty state). */
export function narrowingFilterCount(search: ListSearch): number {
  return (
    [
      search.severity,
      search.q,
      search.service,
      search.release,
      search.environment,
      search.trace_id,
    ].filter((v) => v !== undefined).length +
    (search.status && search.status !== 'active' ? 1 : 0) +
    (search.filters?.length ?? 0)
  );
}

/** The search with every narrowing filter removed (scope, range and columns kept). */
export function clearedFilters(search: LogsPageSearch): LogsPageSearch {
  return {
    project: search.project,
    projects: search.projects,
    since: search.since,
    until: search.until,
    columns: search.columns,
  };
}

export const severityLabels: Record<Severity, string> = sharedSeverityLabels;
