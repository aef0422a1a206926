import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { api, call } from '../client';
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

/** Which spans of a trace a detail read covers (the span list's and summary's query keys). */
export type TraceScope = { project_id?: string; release?: string; environment?: string };

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
      queryFn: () =>
        call(
          api.GET('/api/telemetry/traces/{trace_id}', {
            params: { path: { trace_id: traceId }, query: scope },
          }),
        ),
      // A trace can hold 100,000 spans: keep it while the page is open, do not refetch on focus.
      staleTime: 60_000,
    }),
  /** The summary; `404 trace not found` when no span matches. */
  summary: (traceId: string, scope: TraceScope = {}) =>
    queryOptions({
      queryKey: [...traceQueries.details(), traceId, 'summary', scope] as const,
      queryFn: () =>
        call(
          api.GET('/api/telemetry/traces/{trace_id}/summary', {
            params: { path: { trace_id: traceId }, query: scope },
          }),
        ),
      staleTime: 60_000,
    }),
};
