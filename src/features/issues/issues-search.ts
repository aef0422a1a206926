import { z } from 'zod/mini';
import { searchEnum, searchMatching, searchText } from '../../lib/search-fields';
import type { IssueListFilters } from '../../api/queries/issues';
import {
  isUuid,
  parseProjectScope,
  readableScope,
  scopeQuery,
  type ProjectScopeSearch,
} from '../../lib/project-scope';
import { parseTimeRange, type TimeRangeSearch } from '../../lib/time-range';

/** `me`, `none`, `my_teams`, a user id or `team:<id>` (the service's assignee filter). */
export function isAssigneeFilter(value: string): boolean {
  if (value === 'me' || value === 'none' || value === 'my_teams') return true;
  if (value.startsWith('team:')) return isUuid(value.slice(5));
  return isUuid(value);
}

export const ISSUE_SORTS = ['last_seen', 'occurrences', 'first_seen'] as const;
export type IssueSort = (typeof ISSUE_SORTS)[number];

/**
 * The board's own search (beside the layout's scope and range). `status` defaults to
 * `unresolved`; `all` lists every status. Invalid values fall back to the default.
 */
export const issuesSearchSchema = z.object({
  status: searchEnum(['unresolved', 'resolved', 'archived', 'all']),
  severity: searchEnum(['info', 'warning', 'error', 'critical']),
  priority: searchEnum(['high', 'medium', 'low']),
  assignee: searchMatching(isAssigneeFilter),
  service: searchText(256),
  release: searchText(256),
  environment: searchText(256),
  sort: searchEnum(ISSUE_SORTS),
});

export type IssuesSearch = z.infer<typeof issuesSearchSchema>;
export type IssuesPageSearch = IssuesSearch & ProjectScopeSearch & TimeRangeSearch;

/** The list query for a search, in the projects the account can read (the sort is not sent). */
export function issueFiltersOf(
  search: IssuesPageSearch,
  readableProjectIds: readonly string[],
): IssueListFilters {
  const scope = readableScope(parseProjectScope(search), readableProjectIds);
  const range = parseTimeRange(search);
  const since = range.kind === 'relative' ? `${range.amount}${range.unit}` : range.since;
  const filters: IssueListFilters = { ...scopeQuery(scope), since };
  const status = search.status ?? 'unresolved';
  if (status !== 'all') filters.status = status;
  if (search.severity) filters.severity = search.severity;
  if (search.priority) filters.priority = search.priority;
  if (search.assignee) filters.assignee = search.assignee;
  if (search.service) filters.service_name = search.service;
  if (search.release) filters.release = search.release;
  if (search.environment) filters.environment = search.environment;
  return filters;
}

/** How many filters beyond scope, range and the default status narrow the board. */
export function narrowingCount(search: IssuesSearch): number {
  return (
    [
      search.severity,
      search.priority,
      search.assignee,
      search.service,
      search.release,
      search.environment,
    ].filter((v) => v !== undefined).length + (search.status !== undefined ? 1 : 0)
  );
}

export function clearedIssueFilters(search: IssuesPageSearch): IssuesPageSearch {
  return {
    project: search.project,
    projects: search.projects,
    since: search.since,
    until: search.until,
    sort: search.sort,
  };
}
