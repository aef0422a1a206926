import { infiniteQueryOptions, mutationOptions, queryOptions } from '@tanstack/react-query';
import { histogramBuckets } from '../../lib/histogram-buckets';
import { parseTimeRange, resolveTimeRange } from '../../lib/time-range';
import { api, call } from '../client';
import type { components } from '../schema.gen';

/** An issue as the board reads it: response version 4 (archived, priority, user or team assignee). */
export type Issue = components['schemas']['IssueV4'];
export type IssueStatus = Issue['status'];
export type IssuePriority = Issue['priority'];
export type IssueAssignee = Issue['assignee'];
export type IssueUser = components['schemas']['IssueUser'];
export type IssueTeam = components['schemas']['IssueTeam'];
export type IssueNotification = components['schemas']['IssueNotification'];
export type IssueNotifications = components['schemas']['IssueNotifications'];
export type BulkOutcome = components['schemas']['IssueBulkResult']['results'][number]['outcome'];
type Cursor = NonNullable<components['schemas']['TimeIdCursor']>;

export const ISSUE_STATUSES: readonly IssueStatus[] = ['unresolved', 'resolved', 'archived'];
export const ISSUE_PRIORITIES: readonly IssuePriority[] = ['high', 'medium', 'low'];

/** Issues per page of the board. */
export const ISSUE_PAGE_SIZE = 100;
/** The service takes at most this many ids per bulk request. */
export const BULK_MAX_IDS = 100;
/** The service takes at most this many ids per histogram request. */
export const HISTOGRAM_MAX_IDS = 100;
/**
 * How often the inbox and the triage reads are read again while the tab is visible (React
 * Query skips interval reads of a hidden tab): others' triage reaches no live event, so a read
 * is the only way to see it.
 */
export const NOTIFICATIONS_POLL_MS = 10_000;
export const ISSUES_POLL_MS = 30_000;

export type IssueHistograms = components['schemas']['IssueHistograms'];

/**
 * One histogram read: up to 100 issue ids over a range. `since` is RFC3339 (the board's, as its
 * list read resolved it) or compact (`24h`, resolved when the read starts, so the key does not
 * move with the clock); `until` RFC3339 or absent (now).
 */
export type IssueHistogramParams = { ids: readonly string[]; since: string; until?: string };

/**
 * What selects the issues of one board (the query key). `since` is as the URL says it; each
 * read turns a relative range into one RFC3339 `since` for all its pages.
 */
export type IssueListFilters = {
  project_id?: string;
  project_ids?: string;
  since: string;
  status?: IssueStatus;
  severity?: Issue['severity'];
  priority?: IssuePriority;
  assignee?: string;
  service_name?: string;
  release?: string;
  environment?: string;
};

export type IssuePage = { issues: Issue[]; next_cursor: Cursor | null; since: string };
type IssuePageParam = { since: string; cursor: Cursor } | null;

async function fetchIssuePage(
  filters: IssueListFilters,
  pageParam: IssuePageParam,
): Promise<IssuePage> {
  const since =
    pageParam?.since ??
    resolveTimeRange(parseTimeRange({ since: filters.since }), Date.now()).since;
  const data = await call(
    api.GET('/api/telemetry/issues', {
      params: {
        query: {
          ...filters,
          since,
          pagination: 'cursor',
          response_version: '4',
          limit: String(ISSUE_PAGE_SIZE),
          ...(pageParam
            ? { cursor_time: pageParam.cursor.time, cursor_id: pageParam.cursor.id }
            : {}),
        },
      },
    }),
  );
  // Version 4 was asked for: every issue of the page is in it.
  if (Array.isArray(data)) return { issues: data as Issue[], next_cursor: null, since };
  return { issues: data.issues as Issue[], next_cursor: data.next_cursor, since };
}

export const issuesQueries = {
  all: () => ['issues'] as const,
  lists: () => [...issuesQueries.all(), 'list'] as const,
  list: (filters: IssueListFilters) =>
    infiniteQueryOptions({
      queryKey: [...issuesQueries.lists(), filters] as const,
      queryFn: ({ pageParam }) => fetchIssuePage(filters, pageParam),
      initialPageParam: null as IssuePageParam,
      // Follow `next_cursor` exactly; never compute one from the last row.
      getNextPageParam: (last): IssuePageParam =>
        last.next_cursor ? { since: last.since, cursor: last.next_cursor } : null,
      // Others' triage is not on the live feed: read again whenever the person comes back to
      // the tab, however recent the last read, and now and then while it is visible.
      refetchOnWindowFocus: 'always',
      refetchInterval: ISSUES_POLL_MS,
    }),
  allHistograms: () => [...issuesQueries.all(), 'histograms'] as const,
  histograms: ({ ids, since, until }: IssueHistogramParams) =>
    queryOptions({
      queryKey: [...issuesQueries.allHistograms(), { ids, since, until }] as const,
      queryFn: () => {
        const now = Date.now();
        const range = resolveTimeRange(parseTimeRange({ since, until }), now);
        return call(
          api.GET('/api/telemetry/issues/histograms', {
            params: {
              query: {
                issue_ids: ids.join(','),
                since: range.since,
                ...(range.until === undefined ? {} : { until: range.until }),
                buckets: String(
                  histogramBuckets(
                    Date.parse(range.since),
                    range.until === undefined ? now : Date.parse(range.until),
                  ),
                ),
              },
            },
          }),
        );
      },
      staleTime: 60_000,
    }),
  /** The inbox, newest first; older pages follow `next_cursor` exactly. */
  notifications: () =>
    infiniteQueryOptions({
      queryKey: [...issuesQueries.all(), 'notifications'] as const,
      queryFn: ({ pageParam }) =>
        call(
          api.GET('/api/telemetry/issues/notifications', {
            params: {
              query: pageParam ? { cursor_time: pageParam.time, cursor_id: pageParam.id } : {},
            },
          }),
        ),
      initialPageParam: null as Cursor | null,
      getNextPageParam: (last) => last.next_cursor ?? null,
      // An assignment by someone else reaches this tab only through this read.
      staleTime: 0,
      refetchOnWindowFocus: 'always',
      refetchInterval: NOTIFICATIONS_POLL_MS,
    }),
  assignees: (projectId: string) =>
    queryOptions({
      queryKey: [...issuesQueries.all(), 'assignees', projectId] as const,
      queryFn: () =>
        call(
          api.GET('/api/telemetry/issues/assignees', {
            params: { query: { project_id: projectId, response_version: '2' } },
          }),
        ),
      staleTime: 60_000,
    }),
};

/** One change for every issue of a bulk request (exactly one field). */
export type BulkChange =
  | { status: IssueStatus }
  | { priority: IssuePriority }
  /** A user id, `team:<id>` or `none`. */
  | { assignee: string };

export type BulkResult = { issueId: string; outcome: BulkOutcome; issue: Issue | null };

/** One bulk request: up to 100 ids of ONE project, answered per id in request order. */
export async function postBulk(
  projectId: string,
  issueIds: readonly string[],
  change: BulkChange,
): Promise<BulkResult[]> {
  const data = await call(
    api.POST('/api/telemetry/issues/bulk', {
      body: { project_id: projectId, issue_ids: [...issueIds], ...change, response_version: 2 },
    }),
  );
  return data.results.map((r) => ({
    issueId: r.issue_id,
    outcome: r.outcome,
    // response_version 2 gives version 4 issues.
    issue: r.issue as Issue | null,
  }));
}

export const issuesMutations = {
  /**
   * Moves the read mark to `readAt`: the time of the newest notification the person was
   * shown, never "now" (that would mark as read what arrived after the inbox was read).
   */
  markNotificationsRead: () =>
    mutationOptions({
      mutationKey: [...issuesQueries.all(), 'notifications', 'read'] as const,
      mutationFn: (readAt: string) =>
        call(api.POST('/api/telemetry/issues/notifications/read', { body: { read_at: readAt } })),
      onSuccess: (_data, _input, _result, { client }) =>
        client.invalidateQueries({ queryKey: issuesQueries.notifications().queryKey }),
    }),
};
