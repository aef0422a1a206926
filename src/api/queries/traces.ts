import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { api, call } from '../client';
import { ApiError } from '../errors';
import { combineTraceSummaries } from './trace-summaries';
import type { components } from '../schema.gen';
import { resolveReadRange } from './logs';

export type TraceSpan = components['schemas']['TraceSpan'];
export type TraceSummary = components['schemas']['TraceSummary'];
export type TraceSummarySpan = components['schemas']['TraceSummarySpan'];
export type TraceRow = components['schemas']['TraceRow'];
export type TraceCursor = NonNullable<components['schemas']['TraceCursor']>;
export type TraceNamingQuality = components['schemas']['TraceNamingQuality'];

/** Traces per page of the explorer. */
export const TRACE_PAGE_SIZE = 100;

/**
 * What selects the traces of one discovery read (the query key). `since` is as the URL says
 * it (`24h` or RFC3339); the first page turns it into one RFC3339 `since` for the whole read.
 */
export type TraceListFilters = {
  project_id?: string;
  project_ids?: string;
  since: string;
  service_name?: string;
  release?: string;
  environment?: string;
  status?: 'error' | 'ok';
  /** Whole milliseconds, as the service takes it. */
  min_duration_ms?: number;
};

/**
 * One page, with its naming quality (for this page only), the read's RFC3339 `since` and when
 * the read began (`readAt`, epoch ms: the end of an open range, as every page of it covers).
 */
export type TracePage = {
  traces: TraceRow[];
  next_cursor: TraceCursor | null;
  naming_quality: TraceNamingQuality;
  since: string;
  readAt: number;
};

type TracePageParam = { since: string; readAt: number; cursor: TraceCursor } | null;

async function fetchTracePage(
  filters: TraceListFilters,
  pageParam: TracePageParam,
): Promise<TracePage> {
  const readAt = pageParam?.readAt ?? Date.now();
  const since = pageParam?.since ?? resolveReadRange(filters.since, undefined, readAt).since;
  const { min_duration_ms, ...rest } = filters;
  const data = await call(
    api.GET('/api/telemetry/traces', {
      params: {
        query: {
          ...rest,
          since,
          ...(min_duration_ms !== undefined ? { min_duration_ms: String(min_duration_ms) } : {}),
          pagination: 'cursor',
          limit: String(TRACE_PAGE_SIZE),
          ...(pageParam
            ? { cursor_time: pageParam.cursor.time, cursor_trace_id: pageParam.cursor.trace_id }
            : {}),
        },
      },
    }),
  );
  if (Array.isArray(data)) throw new Error('the service answered a bare array to a cursor read');
  return { ...data, since, readAt };
}

/**
 * Which spans of a trace a detail read covers (the span list's and summary's query keys).
 * The trace routes take one `project_id` (spec, Telemetry reads); `project_ids` (2 to 50, comma
 * separated, as the list routes take it) is read one project at a time and combined here, so a
 * scope of several projects never reads the others the account can read.
 */
export type TraceScope = {
  project_id?: string;
  project_ids?: string;
  release?: string;
  environment?: string;
};

type TraceRouteQuery = { project_id?: string; release?: string; environment?: string };

/** One route query per project of the scope (one query without a project for every project). */
function routeQueries(scope: TraceScope): TraceRouteQuery[] {
  const { project_ids, ...rest } = scope;
  if (project_ids === undefined) return [rest];
  return project_ids.split(',').map((project_id) => ({ ...rest, project_id }));
}

async function fetchSpans(traceId: string, scope: TraceScope): Promise<TraceSpan[]> {
  const parts = await Promise.all(
    routeQueries(scope).map((query) =>
      call(
        api.GET('/api/telemetry/traces/{trace_id}', {
          params: { path: { trace_id: traceId }, query },
        }),
      ),
    ),
  );
  if (parts.length === 1) return parts[0] ?? [];
  return mergeSpansByStart(parts);
}

/** The spans of several projects' reads as one list by start, as one read would give them. */
export function mergeSpansByStart(parts: readonly TraceSpan[][]): TraceSpan[] {
  return parts
    .flat()
    .sort(
      (a, b) => Date.parse(a.started_at) - Date.parse(b.started_at) || a.id.localeCompare(b.id),
    );
}

async function fetchSummary(traceId: string, scope: TraceScope): Promise<TraceSummary> {
  const queries = routeQueries(scope);
  const read = (query: TraceRouteQuery) =>
    call(
      api.GET('/api/telemetry/traces/{trace_id}/summary', {
        params: { path: { trace_id: traceId }, query },
      }),
    );
  if (queries.length === 1) return read(queries[0] ?? {});
  // A project without spans of the trace answers `404 trace not found`: only when none has
  // any is the whole read not found.
  const settled = await Promise.allSettled(queries.map(read));
  const found = settled.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const failure = settled.find(
    (r): r is PromiseRejectedResult =>
      r.status === 'rejected' && !(r.reason instanceof ApiError && r.reason.status === 404),
  );
  if (failure) throw failure.reason;
  if (found.length === 0) {
    const first = settled[0];
    throw first?.status === 'rejected' ? first.reason : new Error('no trace summary');
  }
  return combineTraceSummaries(found);
}

export const traceQueries = {
  all: () => ['traces'] as const,
  lists: () => [...traceQueries.all(), 'list'] as const,
  list: (filters: TraceListFilters) =>
    infiniteQueryOptions({
      queryKey: [...traceQueries.lists(), filters] as const,
      queryFn: ({ pageParam }) => fetchTracePage(filters, pageParam),
      initialPageParam: null as TracePageParam,
      // Follow `next_cursor` exactly; never compute one from the last row.
      getNextPageParam: (last): TracePageParam =>
        last.next_cursor
          ? { since: last.since, readAt: last.readAt, cursor: last.next_cursor }
          : null,
    }),
  details: () => [...traceQueries.all(), 'detail'] as const,
  /** Every span of the trace in scope, by start (`[]` when none matches). */
  spans: (traceId: string, scope: TraceScope = {}) =>
    queryOptions({
      queryKey: [...traceQueries.details(), traceId, 'spans', scope] as const,
      queryFn: () => fetchSpans(traceId, scope),
      // A trace can hold 100,000 spans: keep it while the page is open, do not refetch on focus.
      staleTime: 60_000,
    }),
  /** The summary; `404 trace not found` when no span matches. */
  summary: (traceId: string, scope: TraceScope = {}) =>
    queryOptions({
      queryKey: [...traceQueries.details(), traceId, 'summary', scope] as const,
      queryFn: () => fetchSummary(traceId, scope),
      staleTime: 60_000,
    }),
};
