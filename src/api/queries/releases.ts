import { infiniteQueryOptions, mutationOptions, queryOptions } from '@tanstack/react-query';
import { api, call } from '../client';
import { retryDelayMs, shouldRetry } from '../errors';
import type { components } from '../schema.gen';
import { resolveReadRange } from './logs';

export type ReleaseRow = components['schemas']['ReleaseRow'];
export type ReleaseCursor = NonNullable<components['schemas']['ReleaseCursor']>;
export type TraceHealth = components['schemas']['TraceHealth'];
export type Deployment = components['schemas']['Deployment'];
export type DeploymentCursor = NonNullable<components['schemas']['DeploymentCursor']>;
export type Action = components['schemas']['Action'];
export type MetricSample = components['schemas']['MetricSample'];
type TimeIdCursor = NonNullable<components['schemas']['TimeIdCursor']>;

/** Release rows per page of the list. */
export const RELEASE_PAGE_SIZE = 100;
/** Deployments per page: the service takes 1 to 100. */
export const DEPLOYMENT_PAGE_SIZE = 100;
/** A deployment history read follows `next_cursor` for at most this many pages. */
export const MAX_DEPLOYMENT_PAGES = 20;
/** A chart's deployment read follows `next_cursor` for at most this many pages (1,000 marks). */
export const CHART_DEPLOYMENT_MAX_PAGES = 10;
/** Rows per page of the release page's action and metric lists. */
export const SIGNAL_PAGE_SIZE = 50;

/**
 * What selects the release rows of one list (the query key). `since` is as the URL says it
 * (`24h` or RFC3339; compared with a row's `last_seen_at`); the first page turns it into one
 * RFC3339 `since` for the whole read. Without `since` every row is read (the release page).
 * The route has no `until`.
 */
export type ReleaseListFilters = {
  project_id?: string;
  project_ids?: string;
  since?: string;
  service_name?: string;
  release?: string;
  environment?: string;
};

export type ReleasePage = {
  releases: ReleaseRow[];
  next_cursor: ReleaseCursor | null;
  since: string | undefined;
};
type ReleasePageParam = { since: string | undefined; cursor: ReleaseCursor } | null;

/** The five release cursor keys, each from the same-named `next_cursor` field, as sent. */
export function releaseCursorQuery(cursor: ReleaseCursor) {
  return {
    cursor_time: cursor.time,
    cursor_project_id: cursor.project_id,
    cursor_release: cursor.release,
    cursor_environment: cursor.environment,
    cursor_service_name: cursor.service_name,
  };
}

async function fetchReleasePage(
  filters: ReleaseListFilters,
  pageParam: ReleasePageParam,
  limit: number,
): Promise<ReleasePage> {
  const since = pageParam
    ? pageParam.since
    : filters.since === undefined
      ? undefined
      : resolveReadRange(filters.since, undefined, Date.now()).since;
  const { since: _since, ...rest } = filters;
  const data = await call(
    api.GET('/api/telemetry/releases', {
      params: {
        query: {
          ...rest,
          ...(since === undefined ? {} : { since }),
          pagination: 'cursor',
          limit: String(limit),
          ...(pageParam ? releaseCursorQuery(pageParam.cursor) : {}),
        },
      },
    }),
  );
  if (Array.isArray(data)) return { releases: data, next_cursor: null, since };
  return { releases: data.releases, next_cursor: data.next_cursor, since };
}

/** Every row of a small read (one service's releases), following `next_cursor` to the end. */
async function fetchAllReleaseRows(
  filters: ReleaseListFilters,
  maxPages: number,
): Promise<{ releases: ReleaseRow[]; complete: boolean }> {
  const releases: ReleaseRow[] = [];
  let param: ReleasePageParam = null;
  for (let page = 0; page < maxPages; page += 1) {
    const result: ReleasePage = await fetchReleasePage(filters, param, RELEASE_PAGE_SIZE);
    releases.push(...result.releases);
    if (result.next_cursor === null) return { releases, complete: true };
    param = { since: result.since, cursor: result.next_cursor };
  }
  return { releases, complete: false };
}

/** Which deployments a history read covers: one project or every readable one. */
export type DeploymentListParams = { project_id?: string; status?: 'succeeded' | 'failed' };

/** A deployment history: newest finish first, and whether every page was read. */
export type DeploymentHistory = { deployments: Deployment[]; complete: boolean };

type DeploymentPageData = components['schemas']['DeploymentPage'];

async function fetchDeploymentHistory(params: DeploymentListParams): Promise<DeploymentHistory> {
  const deployments: Deployment[] = [];
  let cursor: DeploymentCursor | null = null;
  for (let page = 0; page < MAX_DEPLOYMENT_PAGES; page += 1) {
    const data: DeploymentPageData = await call(
      api.GET('/api/telemetry/deployments', {
        params: {
          query: {
            ...params,
            limit: String(DEPLOYMENT_PAGE_SIZE),
            // Follow `next_cursor` exactly: all three fields, as the service sent them.
            ...(cursor
              ? {
                  cursor_time: cursor.time,
                  cursor_project_id: cursor.project_id,
                  cursor_deployment_id: cursor.deployment_id,
                }
              : {}),
          },
        },
      }),
    );
    deployments.push(...data.deployments);
    if (data.next_cursor === null) return { deployments, complete: true };
    cursor = data.next_cursor;
  }
  return { deployments, complete: false };
}

/**
 * The deployments a time chart marks: those finished in its range, of one project or of every
 * readable one (a chart narrows them further to its own scope). `since` compact (`24h`) or
 * RFC3339, `until` RFC3339 or absent (now), as the URL holds them.
 */
export type ChartDeploymentParams = { since: string; until?: string; project_id?: string };

/**
 * Deployments finished in a chart's range: a page object every time, followed by its
 * three-field cursor until `next_cursor` is null. The list compares `finished_at` inclusively
 * at both ends and takes RFC3339 only, so both bounds are resolved when the read starts.
 */
async function fetchChartDeployments(params: ChartDeploymentParams): Promise<DeploymentHistory> {
  const now = Date.now();
  const range = resolveReadRange(params.since, params.until, now);
  const until = range.until ?? new Date(now).toISOString();
  const deployments: Deployment[] = [];
  let cursor: DeploymentCursor | null = null;
  for (let page = 0; page < CHART_DEPLOYMENT_MAX_PAGES; page++) {
    const data: DeploymentPageData = await call(
      api.GET('/api/telemetry/deployments', {
        params: {
          query: {
            ...(params.project_id ? { project_id: params.project_id } : {}),
            since: range.since,
            until,
            limit: String(DEPLOYMENT_PAGE_SIZE),
            ...(cursor
              ? {
                  cursor_time: cursor.time,
                  cursor_project_id: cursor.project_id,
                  cursor_deployment_id: cursor.deployment_id,
                }
              : {}),
          },
        },
      }),
    );
    deployments.push(...data.deployments);
    if (!data.next_cursor) return { deployments, complete: true };
    cursor = data.next_cursor;
  }
  return { deployments, complete: false };
}

/** What selects one release's actions or metric samples (exact filters, one project). */
export type SignalListFilters = {
  project_id: string;
  release: string;
  environment: string;
  service_name: string;
  /** RFC3339 or compact; compared with `occurred_at`. */
  since: string;
};

type SignalPageParam = { since: string; cursor: TimeIdCursor } | null;
export type ActionPage = { actions: Action[]; next_cursor: TimeIdCursor | null; since: string };
export type MetricPage = {
  metrics: MetricSample[];
  next_cursor: TimeIdCursor | null;
  since: string;
};

function signalQuery(filters: SignalListFilters, pageParam: SignalPageParam) {
  const since = pageParam?.since ?? resolveReadRange(filters.since, undefined, Date.now()).since;
  return {
    since,
    query: {
      ...filters,
      since,
      pagination: 'cursor' as const,
      limit: String(SIGNAL_PAGE_SIZE),
      ...(pageParam ? { cursor_time: pageParam.cursor.time, cursor_id: pageParam.cursor.id } : {}),
    },
  };
}

async function fetchActionPage(
  filters: SignalListFilters,
  pageParam: SignalPageParam,
): Promise<ActionPage> {
  const { since, query } = signalQuery(filters, pageParam);
  const data = await call(api.GET('/api/telemetry/actions', { params: { query } }));
  if (Array.isArray(data)) return { actions: data, next_cursor: null, since };
  return { actions: data.actions, next_cursor: data.next_cursor, since };
}

async function fetchMetricPage(
  filters: SignalListFilters,
  pageParam: SignalPageParam,
): Promise<MetricPage> {
  const { since, query } = signalQuery(filters, pageParam);
  const data = await call(api.GET('/api/telemetry/metrics', { params: { query } }));
  if (Array.isArray(data)) return { metrics: data, next_cursor: null, since };
  return { metrics: data.metrics, next_cursor: data.next_cursor, since };
}

export const releaseQueries = {
  all: () => ['releases'] as const,
  lists: () => [...releaseQueries.all(), 'list'] as const,
  /** Release rows, most recently seen first, page after page (`next_cursor`, all five fields). */
  list: (filters: ReleaseListFilters) =>
    infiniteQueryOptions({
      queryKey: [...releaseQueries.lists(), filters] as const,
      queryFn: ({ pageParam }) => fetchReleasePage(filters, pageParam, RELEASE_PAGE_SIZE),
      initialPageParam: null as ReleasePageParam,
      // Follow `next_cursor` exactly; never compute one from the last row.
      getNextPageParam: (last): ReleasePageParam =>
        last.next_cursor ? { since: last.since, cursor: last.next_cursor } : null,
    }),
  /**
   * Every row matching exact filters (the rows of one release, or every release of one
   * service and environment), all pages up to `maxPages`. Keyed under `lists()`: a list read
   * again after the live feed reconnects (it does not replay what was missed).
   */
  rows: (filters: ReleaseListFilters, maxPages = 10) =>
    queryOptions({
      queryKey: [...releaseQueries.lists(), 'rows', filters, maxPages] as const,
      queryFn: () => fetchAllReleaseRows(filters, maxPages),
    }),
};

export const deploymentQueries = {
  all: () => ['deployments'] as const,
  lists: () => [...deploymentQueries.all(), 'list'] as const,
  /** The deployment history of a project (or every readable one), newest finish first. */
  history: (params: DeploymentListParams = {}) =>
    queryOptions({
      queryKey: [...deploymentQueries.lists(), params] as const,
      queryFn: () => fetchDeploymentHistory(params),
      staleTime: 30_000,
    }),
  ranges: () => [...deploymentQueries.all(), 'range'] as const,
  /**
   * The deployments every time chart marks: finished in its range, up to
   * `CHART_DEPLOYMENT_MAX_PAGES` pages. One query for all charts, so charts of the same scope
   * and range share one read.
   */
  range: (params: ChartDeploymentParams) =>
    queryOptions({
      queryKey: [...deploymentQueries.ranges(), params] as const,
      queryFn: () => fetchChartDeployments(params),
      staleTime: 30_000,
    }),
  details: () => [...deploymentQueries.all(), 'detail'] as const,
  detail: (projectId: string, deploymentId: string) =>
    queryOptions({
      queryKey: [...deploymentQueries.details(), projectId, deploymentId] as const,
      queryFn: () =>
        call(
          api.GET('/api/telemetry/deployments/{deployment_id}', {
            params: { path: { deployment_id: deploymentId }, query: { project_id: projectId } },
          }),
        ),
    }),
};

export const actionQueries = {
  all: () => ['actions'] as const,
  lists: () => [...actionQueries.all(), 'list'] as const,
  list: (filters: SignalListFilters) =>
    infiniteQueryOptions({
      queryKey: [...actionQueries.lists(), filters] as const,
      queryFn: ({ pageParam }) => fetchActionPage(filters, pageParam),
      initialPageParam: null as SignalPageParam,
      getNextPageParam: (last): SignalPageParam =>
        last.next_cursor ? { since: last.since, cursor: last.next_cursor } : null,
    }),
};

export const metricQueries = {
  all: () => ['metrics'] as const,
  lists: () => [...metricQueries.all(), 'list'] as const,
  list: (filters: SignalListFilters) =>
    infiniteQueryOptions({
      queryKey: [...metricQueries.lists(), filters] as const,
      queryFn: ({ pageParam }) => fetchMetricPage(filters, pageParam),
      initialPageParam: null as SignalPageParam,
      getNextPageParam: (last): SignalPageParam =>
        last.next_cursor ? { since: last.since, cursor: last.next_cursor } : null,
    }),
};

export type DeploymentRequest = components['schemas']['DeploymentRequest'];

/** One deployment to record: its caller-chosen id (the retry key) and the body. */
export type RecordDeploymentInput = { deploymentId: string; body: DeploymentRequest };

/**
 * The service's answer: the deployment stored under the id. It is `200` both when this request
 * stored it and when the id already held exactly this deployment (a retry); its `created_at`
 * tells when it was stored.
 */
export type RecordDeploymentResult = { deployment: Deployment };

async function putDeployment(input: RecordDeploymentInput): Promise<RecordDeploymentResult> {
  const deployment = await call(
    api.PUT('/api/telemetry/deployments/{deployment_id}', {
      params: { path: { deployment_id: input.deploymentId } },
      body: input.body,
    }),
  );
  return { deployment };
}

export const releasesMutations = {
  /**
   * `PUT /api/telemetry/deployments/{id}`: idempotent by id, so a transient failure (no
   * answer, 5xx) is retried with the same id and body; a `409 idempotency_conflict` is not.
   * On success the release rows (their latest deployment), the deployment histories and every
   * chart's markers are read again.
   */
  recordDeployment: () =>
    mutationOptions({
      mutationKey: [...deploymentQueries.all(), 'record'] as const,
      mutationFn: putDeployment,
      retry: (failures: number, error: unknown) =>
        shouldRetry(error, failures + 1, 'idempotent-write'),
      retryDelay: (attempt: number, error: unknown) => retryDelayMs(error, attempt),
      onSuccess: (_data, _input, _result, { client }) =>
        Promise.all([
          client.invalidateQueries({ queryKey: deploymentQueries.all() }),
          client.invalidateQueries({ queryKey: releaseQueries.all() }),
        ]),
    }),
};
