import { z } from 'zod/mini';
import { lenient, searchEnum, searchText } from '../../lib/search-fields';
import type { TraceListFilters } from '../../api/queries/traces';
import {
  parseProjectScope,
  readableScope,
  scopeQuery,
  type ProjectScopeSearch,
} from '../../lib/project-scope';
import { parseTimeRange, type TimeRangeSearch } from '../../lib/time-range';
import type { DeploymentScope } from '../../widgets/deployment-marks/deployment-markers';

/** The trace status filter: traces with an error span, or without one. Absent means both. */
export const TRACE_STATUSES = ['error', 'ok'] as const;
export type TraceStatus = (typeof TRACE_STATUSES)[number];

/**
 * The trace explorer's own search (beside the layout's scope and range). Everything a person
 * sets is here, so a view is a link. Unreadable values fall back to the default, with one
 * exception: a minimum duration that is a number is kept as it is, even when the service
 * would refuse it (`-5`, `1.5`). Dropping it would silently widen the list; sending it shows
 * the service's refusal, and the form beside it says what to type instead.
 */
export const tracesSearchSchema = z.object({
  status: searchEnum(TRACE_STATUSES),
  service: searchText(256),
  release: searchText(256),
  environment: searchText(256),
  /** Minimum trace duration in whole milliseconds. */
  min_ms: lenient(z.number()),
  /** The chart's duration axis: logarithmic by default. */
  scale: searchEnum(['linear']),
});

export type TracesSearch = z.infer<typeof tracesSearchSchema>;
export type TracesPageSearch = TracesSearch & ProjectScopeSearch & TimeRangeSearch;

/** The discovery read for a search, in the projects the account can read. */
export function traceFiltersOf(
  search: TracesPageSearch,
  readableProjectIds: readonly string[],
): TraceListFilters {
  const scope = readableScope(parseProjectScope(search), readableProjectIds);
  const range = parseTimeRange(search);
  const since = range.kind === 'relative' ? `${range.amount}${range.unit}` : range.since;
  const filters: TraceListFilters = { ...scopeQuery(scope), since };
  if (search.service) filters.service_name = search.service;
  if (search.release) filters.release = search.release;
  if (search.environment) filters.environment = search.environment;
  if (search.status) filters.status = search.status;
  if (search.min_ms !== undefined) filters.min_duration_ms = search.min_ms;
  return filters;
}

/** The deployments the chart marks: of its projects, and its service, release, environment. */
export function traceDeploymentScope(filters: TraceListFilters): DeploymentScope {
  return {
    projectIds: filters.project_id ? [filters.project_id] : filters.project_ids?.split(','),
    serviceName: filters.service_name,
    release: filters.release,
    environment: filters.environment,
  };
}

/** What the list depends on (the chart's scale does not reload it). */
export function listSearchOf(search: TracesPageSearch): TracesPageSearch {
  return { ...search, scale: undefined };
}

/** How many filters beyond scope and range narrow the list (for the empty state). */
export function narrowingCount(search: TracesSearch): number {
  return [search.status, search.service, search.release, search.environment, search.min_ms].filter(
    (v) => v !== undefined,
  ).length;
}

/** The search with every narrowing filter removed (scope, range and the chart's scale kept). */
export function clearedTraceFilters(search: TracesPageSearch): TracesPageSearch {
  return {
    project: search.project,
    projects: search.projects,
    since: search.since,
    until: search.until,
    scale: search.scale,
  };
}

/** The largest minimum the form takes (the service reads at most 12 digits). */
export const MAX_MIN_DURATION_MS = 999_999_999_999;

export type MinDurationInput =
  { ok: true; value: number | undefined } | { ok: false; message: string };

/**
 * Checks what a person typed as the minimum duration, with the service's rule (an integer of
 * at least 0, in milliseconds) so nothing it would refuse is sent. Blank means no minimum.
 */
export function checkMinDuration(input: string): MinDurationInput {
  const text = input.trim();
  if (text === '') return { ok: true, value: undefined };
  if (/^\d+$/.test(text)) {
    const value = Number(text);
    if (value > MAX_MIN_DURATION_MS) {
      return { ok: false, message: 'That is longer than any trace: use at most 12 digits.' };
    }
    return { ok: true, value };
  }
  if (/^-\s*\d+(\.\d*)?$/.test(text)) {
    return { ok: false, message: 'The minimum cannot be negative: use 0 or more milliseconds.' };
  }
  if (/^\d*[.,]\d+$/.test(text) || /^\d+[.,]$/.test(text)) {
    return {
      ok: false,
      message: 'Use whole milliseconds (e.g. 2 instead of 1.5); traces are filtered to the ms.',
    };
  }
  return { ok: false, message: 'Type a whole number of milliseconds, e.g. 250.' };
}
