import { infiniteQueryOptions, mutationOptions, queryOptions } from '@tanstack/react-query';
import { api, call } from '../client';
import type { components } from '../schema.gen';
import { ISSUES_POLL_MS } from './issues';

/** The issue as the detail page reads it: response version 4. */
export type IssueDetail = components['schemas']['IssueV4'];
export type IssueDetailStatus = IssueDetail['status'];
export type IssueDetailPriority = IssueDetail['priority'];
export type Occurrence = components['schemas']['IssueOccurrence'];
export type OccurrenceCursor = NonNullable<components['schemas']['TimeIdCursor']>;
export type ActivityEntry = components['schemas']['IssueActivityEntry'];
export type Assignees = components['schemas']['IssueAssignees'];
export type IssueChange = components['schemas']['IssueChange'];
export type TraceLog = components['schemas']['Log'];
/** `source` removes the override: the captured severity is shown. */
export type IssueRuleSeverity = components['schemas']['IssueTriageRule']['severity'];

export type IssueOwners = components['schemas']['IssueOwnersV2'];
export type IssueOwner = components['schemas']['IssueOwner'];
export type Ownership = components['schemas']['IssueOwnership'];
export type OwnershipChange = Omit<components['schemas']['IssueOwnershipChange'], 'project_id'>;

/** One occurrence and the cursor of the next older one (the service's, exactly). */
export type OccurrencePage = {
  occurrence: Occurrence | null;
  next_cursor: OccurrenceCursor | null;
};
export type ActivityPage = components['schemas']['IssueActivityPage'];

/** Entries per page of the activity timeline. */
export const ACTIVITY_PAGE_SIZE = 20;
/** Occurrences read per request while looking for the cursor of a position. */
const OCCURRENCE_WALK_PAGE = 100;
/** Logs of an occurrence's trace shown inline. */
export const TRACE_LOGS_LIMIT = 20;

/** One cursor page of an issue's occurrences, newest first. */
async function readOccurrences(
  issueId: string,
  cursor: OccurrenceCursor | null,
  limit: number,
): Promise<{ events: Occurrence[]; next_cursor: OccurrenceCursor | null }> {
  const data = await call(
    api.GET('/api/telemetry/issues/{issue_id}/events', {
      params: {
        path: { issue_id: issueId },
        query: {
          pagination: 'cursor',
          limit: String(limit),
          ...(cursor ? { cursor_time: cursor.time, cursor_id: cursor.id } : {}),
        },
      },
    }),
  );
  // With `pagination=cursor` the service answers the envelope; an array is one last page.
  if (Array.isArray(data)) return { events: data, next_cursor: null };
  return { events: data.events, next_cursor: data.next_cursor };
}

const asV4 = (issue: components['schemas']['Issue']) => issue as IssueDetail;

export const issueDetailQueries = {
  /** Everything under `['issues']` belongs to the issue pages: the board refreshes with it. */
  all: () => ['issues'] as const,
  issue: (issueId: string) => [...issueDetailQueries.all(), 'detail', issueId] as const,
  detail: (issueId: string) =>
    queryOptions({
      queryKey: [...issueDetailQueries.issue(issueId), 'issue'] as const,
      queryFn: async () =>
        asV4(
          await call(
            api.GET('/api/telemetry/issues/{issue_id}', {
              params: { path: { issue_id: issueId }, query: { response_version: '4' } },
            }),
          ),
        ),
      // Others' triage is not on the live feed: read again whenever the person comes back to
      // the tab, however recent the last read, and now and then while it is visible.
      refetchOnWindowFocus: 'always',
      refetchInterval: ISSUES_POLL_MS,
    }),
  /** One occurrence per page: `cursor` null is the latest; older ones follow `next_cursor`. */
  occurrence: (issueId: string, cursor: OccurrenceCursor | null) =>
    queryOptions({
      queryKey: [...issueDetailQueries.issue(issueId), 'occurrences', cursor] as const,
      queryFn: async (): Promise<OccurrencePage> => {
        const page = await readOccurrences(issueId, cursor, 1);
        return { occurrence: page.events[0] ?? null, next_cursor: page.next_cursor };
      },
      staleTime: 60_000,
    }),
  /**
   * The cursor that reads the occurrence at `position` (counted from the latest, 1): found by
   * reading the occurrences before it, newest first, following `next_cursor` exactly; null
   * when the issue no longer has that many. The pager seeds the cursors it has seen, so going
   * back to a newer occurrence is usually a cache read.
   */
  occurrenceCursor: (issueId: string, position: number) =>
    queryOptions({
      queryKey: [...issueDetailQueries.issue(issueId), 'occurrence-cursor', position] as const,
      queryFn: async (): Promise<OccurrenceCursor | null> => {
        let cursor: OccurrenceCursor | null = null;
        let remaining = position - 1;
        // Every page moves the cursor; an empty one still counts, so the walk always ends.
        for (let reads = 0; remaining > 0 && reads < position; reads++) {
          const page = await readOccurrences(
            issueId,
            cursor,
            Math.min(remaining, OCCURRENCE_WALK_PAGE),
          );
          remaining -= page.events.length;
          cursor = page.next_cursor;
          if (cursor === null) return null;
        }
        return remaining > 0 ? null : cursor;
      },
      staleTime: 60_000,
    }),
  activity: (issueId: string) =>
    infiniteQueryOptions({
      queryKey: [...issueDetailQueries.issue(issueId), 'activity'] as const,
      queryFn: ({ pageParam }): Promise<ActivityPage> =>
        call(
          api.GET('/api/telemetry/issues/{issue_id}/activity', {
            params: {
              path: { issue_id: issueId },
              query: {
                response_version: '2',
                limit: String(ACTIVITY_PAGE_SIZE),
                ...(pageParam ? { cursor_time: pageParam.time, cursor_id: pageParam.id } : {}),
              },
            },
          }),
        ),
      initialPageParam: null as OccurrenceCursor | null,
      // Follow `next_cursor` exactly; never compute one from the last entry.
      getNextPageParam: (last) => last.next_cursor ?? null,
    }),
  /** Accounts and teams of the project (version 2). */
  assignees: (projectId: string) =>
    queryOptions({
      queryKey: [...issueDetailQueries.all(), 'detail', 'assignees', projectId] as const,
      queryFn: () =>
        call(
          api.GET('/api/telemetry/issues/assignees', {
            params: { query: { project_id: projectId, response_version: '2' } },
          }),
        ),
      staleTime: 5 * 60_000,
    }),
  /** Who owns the issue (version 2): the suggested assignee and every owner with its source. */
  owners: (issueId: string) =>
    queryOptions({
      queryKey: [...issueDetailQueries.issue(issueId), 'owners'] as const,
      queryFn: async () =>
        (await call(
          api.GET('/api/telemetry/issues/{issue_id}/owners', {
            params: { path: { issue_id: issueId }, query: { response_version: '2' } },
          }),
        )) as IssueOwners,
    }),
  /** The ownership rules and CODEOWNERS of the issue's project. */
  ownership: (issueId: string, projectId: string) =>
    queryOptions({
      queryKey: [...issueDetailQueries.issue(issueId), 'ownership', projectId] as const,
      queryFn: () =>
        call(
          api.GET('/api/telemetry/issues/ownership', {
            params: { query: { project_id: projectId } },
          }),
        ),
    }),
  /** The first logs of an occurrence's trace (exact `trace_id`). */
  traceLogs: (issueId: string, projectId: string, traceId: string) =>
    queryOptions({
      queryKey: [...issueDetailQueries.issue(issueId), 'trace-logs', projectId, traceId] as const,
      queryFn: async () => {
        const data = await call(
          api.GET('/api/logs', {
            params: {
              query: {
                project_id: projectId,
                trace_id: traceId,
                pagination: 'cursor',
                limit: String(TRACE_LOGS_LIMIT),
              },
            },
          }),
        );
        if (Array.isArray(data)) return { logs: data, more: false };
        return { logs: data.logs, more: data.next_cursor !== null };
      },
      staleTime: 60_000,
    }),
};

export const issueDetailMutations = {
  /** Status, priority or assignee (`me`, a user id, `team:<id>`, `none`). */
  change: (issueId: string) =>
    mutationOptions({
      mutationKey: [...issueDetailQueries.issue(issueId), 'change'] as const,
      mutationFn: (change: IssueChange) =>
        call(
          api.PATCH('/api/telemetry/issues/{issue_id}', {
            params: { path: { issue_id: issueId }, query: { response_version: '4' } },
            body: change,
          }),
        ).then(asV4),
      onSuccess: (issue, _change, _result, { client }) => {
        client.setQueryData(issueDetailQueries.detail(issue.id).queryKey, issue);
        // Boards, this issue's activity and every other issue read refresh.
        return client.invalidateQueries({ queryKey: issueDetailQueries.all() });
      },
      // A failed or unanswered change may still have happened: read the issue again before
      // anything else is sent (spec, Issue changes rule 4).
      onError: (_error, _change, _result, { client }) =>
        client.invalidateQueries({ queryKey: issueDetailQueries.issue(issueId) }),
    }),
  setSeverityRule: (issueId: string) =>
    mutationOptions({
      mutationKey: [...issueDetailQueries.issue(issueId), 'triage-rule'] as const,
      mutationFn: (severity: IssueRuleSeverity) =>
        call(
          api.PUT('/api/telemetry/issues/{issue_id}/triage-rule', {
            params: { path: { issue_id: issueId }, query: { response_version: '4' } },
            body: { severity },
          }),
        ).then(asV4),
      onSuccess: (issue, _severity, _result, { client }) => {
        client.setQueryData(issueDetailQueries.detail(issue.id).queryKey, issue);
        return client.invalidateQueries({ queryKey: issueDetailQueries.all() });
      },
      onError: (_error, _severity, _result, { client }) =>
        client.invalidateQueries({ queryKey: issueDetailQueries.issue(issueId) }),
    }),
  saveOwnership: (issueId: string, projectId: string) =>
    mutationOptions({
      mutationKey: [...issueDetailQueries.issue(issueId), 'ownership', 'save'] as const,
      mutationFn: (change: OwnershipChange) =>
        call(
          api.PUT('/api/telemetry/issues/ownership', {
            body: { project_id: projectId, ...change },
          }),
        ),
      onSuccess: (ownership, _change, _result, { client }) => {
        client.setQueryData(issueDetailQueries.ownership(issueId, projectId).queryKey, ownership);
        // Owners of every issue of the project may change.
        return client.invalidateQueries({ queryKey: issueDetailQueries.all() });
      },
    }),
};
