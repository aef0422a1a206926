import type { IssueStatus, Priority } from '../../../domain/issue-triage';
import type { Severity } from '../../../domain/severity';

export interface IssuesStore {
  /** Matching issues, newest first by (last_seen_at, id), at most `limit`. */
  list(q: IssueListQuery): Promise<IssueRecord[]>;
  /** The issue with this id in one of the projects, or null. */
  byId(projectIds: string[], id: string): Promise<IssueRecord | null>;
  /** The issues of one project with these ids, in the order of `ids` (others left out). */
  byIds(projectId: string, ids: string[]): Promise<IssueRecord[]>;
  /** Issues with these ids in any project, in no particular order (the live feed's). */
  records(ids: string[]): Promise<IssueRecord[]>;
  /**
   * Applies one change to each issue in one transaction and records an activity entry for
   * each field that really changed. Outcomes in the order of `issueIds`; an id that is not
   * an issue of the project is `not_found`.
   */
  change(change: IssueChange): Promise<ChangeOutcome[]>;
  /**
   * Sets (or, with null, removes) the severity rule of an issue's grouping key. False when
   * the rule already said so (nothing changed, no activity).
   */
  setRule(change: {
    projectId: string;
    issueId: string;
    severity: Severity | null;
    actorId: string;
    at: number;
  }): Promise<boolean>;
  /** Accounts that can read the project (members of its organization), by name then email. */
  readersOf(projectId: string): Promise<AccountRef[]>;
  /** Teams of an organization, by name. */
  teamsOf(organizationId: string): Promise<TeamRef[]>;
  /** A team and its organization, or null. */
  team(teamId: string): Promise<(TeamRef & { organizationId: string }) | null>;
  /** The issue's activity, newest first by (at, id), strictly after `after`. */
  activity(
    issueId: string,
    after: { time: number; id: string } | null,
    limit: number,
  ): Promise<ActivityRecord[]>;
  /** The account's notifications in the given (readable) projects. */
  notifications(q: {
    accountId: string;
    projectIds: string[];
    after: { time: number; id: string } | null;
    limit: number;
  }): Promise<NotificationPage>;
  /** Moves the account's read mark to `at` unless it is already later; returns the mark. */
  markNotificationsRead(accountId: string, at: number): Promise<number>;
}

/** An issue group with the fields of its latest occurrence. */
export type IssueRow = {
  id: string;
  projectId: string;
  fingerprint: string;
  status: IssueStatus;
  occurrenceCount: number;
  firstSeenAt: number;
  lastSeenAt: number;
  /** Captured severity of the latest occurrence. */
  severity: Severity;
  /** The override of the issue's severity rule; null when no rule applies. */
  ruleSeverity: Severity | null;
  title: string;
  message: string;
  stackTrace: string | null;
  attributes: Record<string, unknown>;
  environment: string;
  release: string;
  serviceName: string;
  traceId: string | null;
  spanId: string | null;
  exception: { type: string; value?: string } | null;
  breadcrumbs: unknown[] | null;
  breadcrumbsTruncated: boolean;
};

/** An issue with its triage state: what every issue read returns. */
export type IssueRecord = IssueRow & {
  /** Set by a person; null while the priority is derived from effective severity. */
  manualPriority: Priority | null;
  assignee: IssueAssignee | null;
};

/** An account as issue triage shows it (assignee, actor). */
export type AccountRef = { id: string; name: string | null; email: string };

/** A team as issue triage shows it. */
export type TeamRef = { id: string; slug: string; name: string };

/**
 * The stored assignee of an issue. A user assignee keeps its place when the account loses
 * access to the project; `canRead` says whether reads show it.
 */
export type IssueAssignee =
  ({ type: 'user'; canRead: boolean } & AccountRef) | ({ type: 'team' } & TeamRef);

/** The list's `assignee` filter, resolved for the caller (`me` is the caller's id). */
export type IssueAssigneeFilter =
  | { kind: 'none' }
  | { kind: 'user'; accountId: string }
  | { kind: 'team'; teamId: string }
  | { kind: 'teams_of'; accountId: string };

/** A validated issue list query. Severity and priority are effective (after rules). */
export type IssueListQuery = {
  projectIds: string[];
  status: IssueStatus | null;
  severity: Severity | null;
  priority: Priority | null;
  assignee: IssueAssigneeFilter | null;
  /** Exact matches on the issue's fields (those of its latest occurrence). */
  serviceName: string | null;
  release: string | null;
  environment: string | null;
  /** Epoch ms, inclusive, compared with last_seen_at. */
  since: number | null;
  /** Issues strictly after this position in (last_seen_at, id) descending order. */
  after: { time: number; id: string } | null;
  limit: number;
};

/** The assignee a change sets: an account, a team, or null to remove it. */
export type AssigneeTarget = { type: 'user'; accountId: string } | { type: 'team'; teamId: string };

/** One change applied to issues of one project; absent fields are left as they are. */
export type IssueChange = {
  projectId: string;
  issueIds: string[];
  status?: IssueStatus;
  priority?: Priority;
  assignee?: AssigneeTarget | null;
  actorId: string;
  at: number;
};

export type ChangeOutcome = 'updated' | 'unchanged' | 'not_found';

export type ActivityType =
  'status' | 'priority' | 'assigned' | 'unassigned' | 'severity_rule' | 'first_seen';

/** One entry of an issue's activity; `first_seen` entries come from its first occurrence. */
export type ActivityRecord = {
  id: string;
  issueId: string;
  projectId: string;
  type: ActivityType;
  value: string | null;
  /** Null for what ingestion did (first seen, a regression). */
  actor: AccountRef | null;
  assigneeUser: AccountRef | null;
  assigneeTeam: TeamRef | null;
  at: number;
};

/** An assignment of a readable issue to the account or one of its teams, by someone else. */
export type NotificationRecord = ActivityRecord & { issueTitle: string };

export type NotificationPage = {
  /** Newest first, at most `limit`. */
  notifications: NotificationRecord[];
  /** Notifications after the read mark, over all pages. */
  unread: number;
  readAt: number | null;
};
