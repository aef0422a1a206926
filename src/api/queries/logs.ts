import { infiniteQueryOptions, mutationOptions, queryOptions } from '@tanstack/react-query';
import { parseTimeRange, resolveTimeRange } from '../../lib/time-range';
import { api, call } from '../client';
import type { components, paths } from '../schema.gen';

export type Log = components['schemas']['Log'];
export type LogCursor = NonNullable<components['schemas']['LogCursor']>;
export type Severity = Log['severity'];
export type LogStatus = 'active' | 'ignored' | 'all';

type CatalogResponse =
  paths['/api/logs/attributes']['get']['responses'][200]['content']['application/json'];
export type LogAttribute = CatalogResponse['attributes'][number];
export type LogAttributeCoverage = CatalogResponse['coverage'];
type CatalogCursor = NonNullable<CatalogResponse['next_cursor']>;

export const SEVERITIES: readonly Severity[] = ['info', 'warning', 'error', 'critical'];

/** Rows per page of the list. */
export const LOG_PAGE_SIZE = 100;
/** Paths per page of the attribute catalog in the pickers. */
export const CATALOG_PAGE_SIZE = 100;

/**
 * What selects the logs of one list (the query key). `since` is as the URL says it (`24h`
 * or RFC3339): each read turns a relative range into one RFC3339 `since` when it fetches its
 * first page and sends that with every later page (see `LogPage.since`).
 */
export type LogListFilters = {
  project_id?: string;
  project_ids?: string;
  since: string;
  until?: string;
  severity?: Severity;
  search?: string;
  trace_id?: string;
  service_name?: string;
  release?: string;
  environment?: string;
  /** `active` is the service's default and is never sent. */
  status?: 'ignored' | 'all';
  /** The JSON of 1 to 4 checked filters (`serializeAttributeFilters`). */
  attribute_filters?: string;
};

/** One page, with the RFC3339 `since` the whole read uses. */
export type LogPage = { logs: Log[]; next_cursor: LogCursor | null; since: string };

/** The next page: the read's `since` and the service's cursor, exactly as sent. */
type LogPageParam = { since: string; cursor: LogCursor } | null;

/** The RFC3339 bounds of a read that starts now. */
export function resolveReadRange(
  since: string,
  until: string | undefined,
  now: number,
): { since: string; until?: string } {
  return resolveTimeRange(parseTimeRange({ since, until }), now);
}

async function fetchLogPage(filters: LogListFilters, pageParam: LogPageParam): Promise<LogPage> {
  const range = pageParam
    ? { since: pageParam.since, ...(filters.until ? { until: filters.until } : {}) }
    : resolveReadRange(filters.since, filters.until, Date.now());
  const data = await call(
    api.GET('/api/logs', {
      params: {
        query: {
          ...filters,
          ...range,
          pagination: 'cursor',
          limit: String(LOG_PAGE_SIZE),
          ...(pageParam
            ? { cursor_time: pageParam.cursor.time, cursor_id: pageParam.cursor.id }
            : {}),
        },
      },
    }),
  );
  // With `pagination=cursor` the service answers the envelope; an array would be one page.
  if (Array.isArray(data)) return { logs: data, next_cursor: null, since: range.since };
  return { logs: data.logs, next_cursor: data.next_cursor, since: range.since };
}

export type CatalogParams = {
  project_id?: string;
  project_ids?: string;
  /** Compact or RFC3339; the catalog has no `until`. */
  since: string;
  search?: string;
  type?: 'string' | 'number' | 'boolean';
};

export type CatalogPage = {
  attributes: LogAttribute[];
  coverage: LogAttributeCoverage;
  next_cursor: CatalogCursor | null;
  since: string;
};

type CatalogPageParam = { since: string; cursor: CatalogCursor } | null;

async function fetchCatalogPage(
  params: CatalogParams,
  pageParam: CatalogPageParam,
  limit: number,
): Promise<CatalogPage> {
  const since = pageParam?.since ?? resolveReadRange(params.since, undefined, Date.now()).since;
  const data = await call(
    api.GET('/api/logs/attributes', {
      params: {
        query: {
          ...params,
          since,
          limit: String(limit),
          ...(pageParam
            ? {
                cursor_observed_count: String(pageParam.cursor.observed_count),
                cursor_path: pageParam.cursor.path,
                cursor_type: pageParam.cursor.type,
              }
            : {}),
        },
      },
    }),
  );
  return { ...data, since };
}

export const logsQueries = {
  all: () => ['logs'] as const,
  lists: () => [...logsQueries.all(), 'list'] as const,
  list: (filters: LogListFilters) =>
    infiniteQueryOptions({
      queryKey: [...logsQueries.lists(), filters] as const,
      queryFn: ({ pageParam }) => fetchLogPage(filters, pageParam),
      initialPageParam: null as LogPageParam,
      // Follow `next_cursor` exactly; never compute one from the last row.
      getNextPageParam: (last): LogPageParam =>
        last.next_cursor ? { since: last.since, cursor: last.next_cursor } : null,
    }),
  details: () => [...logsQueries.all(), 'detail'] as const,
  detail: (logId: string) =>
    queryOptions({
      queryKey: [...logsQueries.details(), logId] as const,
      queryFn: () => call(api.GET('/api/logs/{log_id}', { params: { path: { log_id: logId } } })),
    }),
  catalogs: () => [...logsQueries.all(), 'attributes'] as const,
  /** The attribute catalog, for picking a path (searchable, one page after another). */
  catalog: (params: CatalogParams) =>
    infiniteQueryOptions({
      queryKey: [...logsQueries.catalogs(), 'paths', params] as const,
      queryFn: ({ pageParam }) => fetchCatalogPage(params, pageParam, CATALOG_PAGE_SIZE),
      initialPageParam: null as CatalogPageParam,
      getNextPageParam: (last): CatalogPageParam =>
        last.next_cursor ? { since: last.since, cursor: last.next_cursor } : null,
      staleTime: 60_000,
    }),
  /** Which logs of a scope and range attribute filters can search (catalog `type`/`search` do not change it). */
  coverage: (params: Pick<CatalogParams, 'project_id' | 'project_ids' | 'since'>) =>
    queryOptions({
      queryKey: [...logsQueries.catalogs(), 'coverage', params] as const,
      queryFn: async () => (await fetchCatalogPage(params, null, 1)).coverage,
      staleTime: 60_000,
    }),
};

/** `source` removes the override: the captured severity is shown. */
export type TriageSeverity = Severity | 'source';

export type TriageRuleInput = { logId: string; severity: TriageSeverity; ignored: boolean };

export const logsMutations = {
  setTriageRule: () =>
    mutationOptions({
      mutationKey: [...logsQueries.all(), 'set-triage-rule'] as const,
      mutationFn: (input: TriageRuleInput) =>
        call(
          api.PUT('/api/logs/{log_id}/triage-rule', {
            params: { path: { log_id: input.logId } },
            body: { severity: input.severity, ignored: input.ignored },
          }),
        ),
      onSuccess: (log, _input, _result, { client }) => {
        client.setQueryData(logsQueries.detail(log.id).queryKey, log);
        // The rule applies to every log of its kind: every list and open log may change.
        return Promise.all([
          client.invalidateQueries({ queryKey: logsQueries.lists() }),
          client.invalidateQueries({ queryKey: logsQueries.details() }),
        ]);
      },
    }),
};
