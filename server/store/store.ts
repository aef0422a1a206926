import type { IssueStatus, Priority } from '../domain/issue-triage';
import type { PlanTier } from '../domain/plans';
import type { Subscription } from '../domain/subscription';
import type { LimitName, UsageByStream } from '../domain/usage';
import type { AttributeFilter, AttributeType } from '../domain/read-rules/attribute-filters';
import type { Severity } from '../domain/severity';
import type { ActionEvent, Batch, LogEvent, MetricEvent, SpanEvent } from '../ingest/normalized';
import type { Stream } from '../domain/usage';
import type { SummaryInputSpan } from '../domain/trace-summary';
import type { FunnelStepDef } from '../domain/funnel';
import type { LifecycleActivity } from '../domain/lifecycle';
import type { PathStep } from '../domain/paths';
import type { EventMatcher, RetentionActivity } from '../domain/retention';
import type {
  AccessTokenRow,
  AccountRow,
  BrowserSessionRow,
  IdempotencyRecord,
  IngestKeyRow,
  LoginFamilyRow,
  MembershipRow,
  OrganizationRow,
  OrgRole,
  ProjectRow,
  ReadableProject,
  RefreshTokenRow,
  TeamRow,
} from './records';
import type { InvestigationsStore } from './investigation-store';
import type { SupportStore } from './support-store';

/**
 * Everything the service asks of storage. Methods are async so that a PostgreSQL adapter
 * can implement the same interface; the SQLite one answers synchronously inside.
 * All SQL lives behind this interface (server/store/).
 */
export interface Store {
  accounts: AccountsStore;
  credentials: CredentialsStore;
  projects: ProjectsStore;
  idempotency: IdempotencyStore;
  telemetry: TelemetryStore;
  logs: LogsStore;
  issues: IssuesStore;
  traces: TracesStore;
  releases: ReleasesStore;
  actions: ActionsStore;
  metrics: MetricsStore;
  volume: VolumeStore;
  deployments: DeploymentsStore;
  ownership: OwnershipStore;
  usage: UsageStore;
  /** Reads of the investigation bundles and correction verification. */
  investigations: InvestigationsStore;
  /** Support tickets and their attached context. */
  support: SupportStore;
  /** Closes storage; resolves once background work on the files has stopped. */
  close(): Promise<void>;
}

export interface AccountsStore {
  create(row: AccountRow): Promise<void>;
  byId(id: string): Promise<AccountRow | null>;
  byEmail(email: string): Promise<AccountRow | null>;
  setRevokedBefore(accountId: string, at: number): Promise<void>;
  createOrganization(row: OrganizationRow): Promise<void>;
  /** Whether an organization already uses the slug (slugs are unique across the service). */
  organizationSlugTaken(slug: string): Promise<boolean>;
  /**
   * Creates an organization owned by the account, in one transaction with the check that it
   * owns fewer than `maxOwned` organizations, so two concurrent creates cannot pass the
   * limit. False (nothing written) when it already owns `maxOwned`.
   */
  createOwnedOrganization(
    row: OrganizationRow,
    ownerId: string,
    maxOwned: number,
    receipt?: IdempotencyReceipt | null,
  ): Promise<boolean>;
  addMember(row: MembershipRow): Promise<void>;
  membershipsOf(accountId: string): Promise<(MembershipRow & { organizationName: string })[]>;
  createTeam(row: TeamRow, memberIds: string[]): Promise<void>;
  count(): Promise<number>;
}

export interface CredentialsStore {
  createFamily(row: LoginFamilyRow): Promise<void>;
  family(id: string): Promise<LoginFamilyRow | null>;
  revokeFamily(id: string, at: number): Promise<void>;
  insertRefreshToken(row: RefreshTokenRow): Promise<void>;
  refreshToken(tokenHash: string): Promise<RefreshTokenRow | null>;
  /** Marks the token replaced; false when it was already replaced (a reuse). */
  markRefreshTokenReplaced(tokenHash: string, at: number): Promise<boolean>;
  insertAccessToken(row: AccessTokenRow): Promise<void>;
  accessToken(tokenHash: string): Promise<AccessTokenRow | null>;
  insertBrowserSession(row: BrowserSessionRow): Promise<void>;
  browserSession(tokenHash: string): Promise<BrowserSessionRow | null>;
  revokeBrowserSession(tokenHash: string, at: number): Promise<void>;
  /** Whether a token hash belongs to an ingest key (to refuse it clearly on account routes). */
  isIngestKeyHash(tokenHash: string): Promise<boolean>;
}

export interface ProjectsStore {
  /** With a receipt, the replay record is written in the same transaction as the project. */
  create(row: ProjectRow, receipt?: IdempotencyReceipt | null): Promise<void>;
  /**
   * Creates the project in one transaction with the check that its organization holds fewer
   * than `maxProjects`, so concurrent creates cannot pass the plan's limit. False (nothing
   * written) when it already holds `maxProjects`.
   */
  createWithinLimit(
    row: ProjectRow,
    maxProjects: number,
    receipt?: IdempotencyReceipt | null,
  ): Promise<boolean>;
  readableBy(accountId: string): Promise<ReadableProject[]>;
  readable(accountId: string, projectId: string): Promise<ReadableProject | null>;
  slugTaken(organizationId: string, slug: string): Promise<boolean>;
  createIngestKey(
    row: IngestKeyRow & { keyHash: string },
    receipt?: IdempotencyReceipt | null,
  ): Promise<void>;
  ingestKeyByHash(keyHash: string): Promise<IngestKeyRow | null>;
}

/**
 * The replay record of an `Idempotency-Key` create, handed to the store's create so both are
 * one write: a create whose result is not remembered must not have happened, or a retry
 * with the same key would create again.
 */
export type IdempotencyReceipt = {
  scope: string;
  key: string;
  record: IdempotencyRecord;
  at: number;
};

export interface IdempotencyStore {
  /** The record stored for the key after `notBefore` (epoch ms); older ones are forgotten. */
  get(scope: string, key: string, notBefore: number): Promise<IdempotencyRecord | null>;
}

export type { OrgRole };

/** Per-stream counts of what a batch stored (items already accepted are not in them). */
export type AcceptCounts = {
  issues: number;
  logs: number;
  trace_spans: number;
  actions: number;
  metrics: number;
};

export type AcceptResult = {
  counts: AcceptCounts;
  alreadyAccepted: number;
  contextUpdated: boolean;
  /** The items stored by this call, in request order (for the live feed). */
  stored: Batch;
  /** Issue groups that received a new occurrence. */
  issueIds: string[];
};

/** Raised inside `accept` when the new items would pass a quota; nothing is stored. */
export class QuotaExceededError extends Error {
  constructor(readonly limit: LimitName) {
    super(`quota ${limit} exceeded`);
  }
}

export type QuotaContext = {
  /** The account whose allowance the project draws on (the owner of its organization). */
  accountId: string;
  /** Start of the current usage period (epoch ms, a UTC day). */
  periodStart: number;
  quotas: Record<LimitName, number>;
};

export interface TelemetryStore {
  /**
   * Stores the new items of a batch in one transaction. Ids already accepted for the
   * project are counted, not stored again. When the new items would pass a quota,
   * throws QuotaExceededError and stores nothing.
   */
  accept(batch: Batch, receivedAt: number, quota: QuotaContext): Promise<AcceptResult>;
  /** Issue groups with the fields of their latest occurrence. */
  issueRows(ids: string[]): Promise<IssueRecord[]>;
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

/** The triage rule that matches a log: a severity override (null keeps the captured one). */
export type LogRule = { severity: Severity | null; ignored: boolean };

/**
 * A stored log as the read routes return it (the live feed passes its `LogEvent`, a superset).
 * `rule` is the matching triage rule, null or absent when none applies.
 */
export type LogRecord = Omit<LogEvent, 'kind' | 'attributesJson' | 'bytes'> & {
  projectId: string;
  rule?: LogRule | null;
};

/** Triage status of the log list: `active` (default), `ignored`, or `all`. */
export type LogStatus = 'active' | 'ignored' | 'all';

/** A validated log list query; every filter is already checked by the read rules. */
export type LogListQuery = {
  /** Readable projects to read; empty reads nothing. */
  projectIds: string[];
  /** Compared with effective severity (after rules). */
  severity: Severity | null;
  /** Case-insensitive substring of the message. */
  search: string | null;
  traceId: string | null;
  serviceName: string | null;
  release: string | null;
  environment: string | null;
  status: LogStatus;
  attributeFilters: AttributeFilter[];
  /** Epoch ms, inclusive. */
  since: number | null;
  /** Epoch ms, exclusive. */
  until: number | null;
  /** Rows strictly after this position in newest-first order. */
  after: { time: number; id: string } | null;
  limit: number;
};

/** `GET /api/logs/attributes`, validated: the range is [since, ∞). */
export type AttributeCatalogQuery = {
  projectIds: string[];
  since: number;
  /** Captured severity (not effective). */
  severity: Severity | null;
  type: AttributeType | null;
  /** Case-insensitive path substring. */
  search: string | null;
  /** Entries strictly after this one in catalog order. */
  after: { observedCount: number; path: string; type: AttributeType } | null;
  limit: number;
};

export type CatalogEntry = {
  path: string;
  type: AttributeType;
  observedCount: number;
  lastSeenAt: number;
};

export type AttributeCatalog = {
  /** Most observed first, then path, then type. */
  attributes: CatalogEntry[];
  hasMore: boolean;
  /** Over the scope, range and severity only (never `type`, `search` or the cursor). */
  coverage: {
    total_logs: number;
    indexed_logs: number;
    partially_indexed_logs: number;
    unindexed_logs: number;
    index_limits: { max_depth: number; max_attributes_per_log: number; max_string_bytes: number };
  };
};

export interface LogsStore {
  /** The attribute catalog of the logs in scope and range. */
  catalog(q: AttributeCatalogQuery): Promise<AttributeCatalog>;
  /** Matching logs, newest first (occurred_at DESC, id DESC), at most `limit`. */
  list(q: LogListQuery): Promise<LogRecord[]>;
  /** The log with this id in one of the projects, or null. */
  byId(projectIds: string[], id: string): Promise<LogRecord | null>;
  /** The rules matching the given logs of one project, by log id (logs without one are absent). */
  rulesFor(projectId: string, logIds: string[]): Promise<Map<string, LogRule>>;
  /**
   * Sets (or, with null, removes) the rule matching the log's triage key in its project.
   * False when the log does not exist in that project.
   */
  setRule(change: {
    projectId: string;
    logId: string;
    rule: LogRule | null;
    at: number;
    by: string;
  }): Promise<boolean>;
}

/** Counted usage of one project, UTC day and stream (what `usage_counters` holds). */
export type DailyUsageRow = {
  projectId: string;
  day: number;
  stream: Stream;
  events: number;
  bytes: number;
};

/** Events an SDK reported as dropped, summed per project and reason. */
export type DroppedEventsRow = { projectId: string; reason: string; events: number };

export interface UsageStore {
  /** The account that owns the project's organization, and its plan. */
  billingAccountOf(projectId: string): Promise<{ accountId: string; tier: PlanTier } | null>;
  /** Usage by stream of every project the account owns, from `since` (a UTC day) on. */
  accountUsage(accountId: string, since: number): Promise<UsageByStream>;
  /** Stores the account's plan and subscription (tier, interval, state, period). */
  setPlan(accountId: string, subscription: Subscription): Promise<void>;
  /** The account's plan tier, or null for an unknown account. */
  planTierOf(accountId: string): Promise<PlanTier | null>;
  /** The account's plan and subscription, or null for an unknown account. */
  subscriptionOf(accountId: string): Promise<Subscription | null>;
  /** Ids of the projects in organizations the account owns (whose usage it pays), by id. */
  ownedProjects(accountId: string): Promise<string[]>;
  /** How many organizations the account owns. */
  ownedOrganizationCount(accountId: string): Promise<number>;
  /**
   * The plan an organization follows: its owner's subscription (the first owner by account id,
   * the account `billingAccountOf` charges), and how many projects it holds. Null without owner.
   */
  organizationPlan(
    organizationId: string,
  ): Promise<{ accountId: string; subscription: Subscription; projects: number } | null>;
  /** Counted usage of the owned projects per day and stream, from `since` (a UTC day) on. */
  dailyUsage(accountId: string, since: number): Promise<DailyUsageRow[]>;
  /** Events SDKs reported dropped for the owned projects, from `since` (a UTC day) on. */
  droppedEvents(accountId: string, since: number): Promise<DroppedEventsRow[]>;
}

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

/** An issue with its triage state: what every issue read returns. */
export type IssueRecord = IssueRow & {
  /** Set by a person; null while the priority is derived from effective severity. */
  manualPriority: Priority | null;
  assignee: IssueAssignee | null;
};

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

/** One stored occurrence of an issue, with its own context. */
export type OccurrenceRecord = {
  id: string;
  issueId: string;
  projectId: string;
  occurredAt: number;
  severity: Severity;
  title: string;
  message: string;
  exception: { type: string; value?: string } | null;
  stackTrace: string | null;
  attributes: Record<string, unknown>;
  environment: string;
  release: string;
  serviceName: string;
  traceId: string | null;
  spanId: string | null;
  breadcrumbs: unknown[] | null;
  breadcrumbsTruncated: boolean;
  sdk: { name: string; version: string };
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

export interface IssuesStore {
  /** Matching issues, newest first by (last_seen_at, id), at most `limit`. */
  list(q: IssueListQuery): Promise<IssueRecord[]>;
  /** The issue with this id in one of the projects, or null. */
  byId(projectIds: string[], id: string): Promise<IssueRecord | null>;
  /** The issues of one project with these ids, in the order of `ids` (others left out). */
  byIds(projectId: string, ids: string[]): Promise<IssueRecord[]>;
  /**
   * Of `issueIds`, those in one of `projectIds` (`readable`, in no particular order), and
   * their stored occurrences per UTC hour from `fromHour` (inclusive) to `toHour` (exclusive);
   * hours without occurrences are absent.
   */
  occurrenceHours(q: {
    projectIds: string[];
    issueIds: string[];
    fromHour: number;
    toHour: number;
  }): Promise<{
    readable: string[];
    hours: { issueId: string; hour: number; occurrences: number }[];
  }>;
  /** Occurrences of an issue, newest first by (occurred_at, id), strictly after `after`. */
  occurrences(
    issueId: string,
    after: { time: number; id: string } | null,
    limit: number,
  ): Promise<OccurrenceRecord[]>;
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

/** A project's issue ownership texts; both empty and `updatedAt` null until first set. */
export type OwnershipRecord = {
  projectId: string;
  rules: string;
  codeowners: string;
  updatedAt: number | null;
};

export interface OwnershipStore {
  get(projectId: string): Promise<OwnershipRecord>;
  /**
   * Replaces the given texts (an absent one keeps its text). `updatedAt` moves to `at` only
   * when a text really changes.
   */
  set(change: {
    projectId: string;
    rules?: string;
    codeowners?: string;
    at: number;
    by: string;
  }): Promise<OwnershipRecord>;
}

/** A stored span as the span list and the live feed return it. */
export type SpanRecord = Omit<SpanEvent, 'kind'> & { projectId: string };

/** `GET /api/telemetry/traces`, validated. A trace matches on its spans in `projectIds`. */
export type TraceDiscoveryQuery = {
  projectIds: string[];
  /** The trace has at least one span (in scope) with this service, release or environment. */
  serviceName: string | null;
  release: string | null;
  environment: string | null;
  /** `error`: at least one error span; `ok`: none. */
  status: 'error' | 'ok' | null;
  /** Epoch ms, inclusive, compared with the trace's start. */
  since: number | null;
  minDurationMs: number | null;
  /** Traces strictly after this position in newest-first (start, trace id) order. */
  after: { time: number; traceId: string } | null;
  limit: number;
};

/** One trace as discovery sees it: its spans in the projects of the query combined. */
export type TraceDiscoveryRow = {
  traceId: string;
  projectIds: string[];
  startedAt: number;
  endedAt: number;
  spanCount: number;
  errorSpanCount: number;
  root: { name: string; serviceName: string; operation: string | null };
  services: string[];
  releases: string[];
  environments: string[];
  genericNameSpans: number;
  unmatchedRouteSpans: number;
  genericOperationSpans: number;
};

/** The spans of one trace a detail read covers. */
export type TraceScope = {
  traceId: string;
  projectIds: string[];
  release: string | null;
  environment: string | null;
};

/** An issue with an occurrence carrying the trace (its newest such occurrence). */
export type TraceIssueRef = {
  issueId: string;
  projectId: string;
  title: string;
  occurrenceId: string;
  spanId: string | null;
  occurredAt: number;
};

export interface TracesStore {
  /** Matching traces, newest first by (start, trace id), at most `limit`. */
  discover(q: TraceDiscoveryQuery): Promise<TraceDiscoveryRow[]>;
  /** Every span of the trace in scope, by start time (then span id). */
  spans(scope: TraceScope): Promise<SpanRecord[]>;
  /** The same spans without attributes and events, for the summary. */
  summarySpans(scope: TraceScope): Promise<SummaryInputSpan[]>;
  /** Issues whose occurrences carry exactly this trace id, newest first. */
  issues(scope: TraceScope): Promise<TraceIssueRef[]>;
}

/** `GET /api/telemetry/releases`, validated. */
export type ReleaseListQuery = {
  projectIds: string[];
  serviceName: string | null;
  release: string | null;
  environment: string | null;
  /** Epoch ms, inclusive, compared with the row's `last_seen_at`. */
  since: number | null;
  /** Rows strictly after this position in (last_seen_at, project, release, environment, service) descending order. */
  after: (ReleaseKey & { time: number }) | null;
  limit: number;
};

export type ReleaseKey = {
  projectId: string;
  release: string;
  environment: string;
  serviceName: string;
};

export type ReleaseRow = ReleaseKey & {
  issueCount: number;
  logCount: number;
  traceSpanCount: number;
  actionCount: number;
  metricCount: number;
  traceCount: number;
  errorTraceCount: number;
  firstSeenAt: number;
  lastSeenAt: number;
};

export interface ReleasesStore {
  /** Matching release rows, newest first, at most `limit`. */
  list(q: ReleaseListQuery): Promise<ReleaseRow[]>;
}

/** A time-ordered telemetry list (actions, metric samples), validated. */
export type TimeListQuery = {
  projectIds: string[];
  name: string | null;
  serviceName: string | null;
  release: string | null;
  environment: string | null;
  /** Epoch ms, inclusive. */
  since: number | null;
  /** Rows strictly after this position in newest-first (occurred_at, id) order. */
  after: { time: number; id: string } | null;
  limit: number;
};

export type ActionListQuery = TimeListQuery & { distinctId: string | null };
export type ActionRecord = Omit<ActionEvent, 'kind'> & { projectId: string };

/** One project's actions in `[from, to)`, optionally of one environment (analytics). */
export type ActionRangeQuery = {
  projectId: string;
  from: number;
  to: number;
  environment: string | null;
};

/** The analytics overview and properties: the range plus their exact filters. */
export type ActionFilteredRange = ActionRangeQuery & {
  serviceName: string | null;
  release: string | null;
};

export type ActionOverviewCounts = {
  totals: { events: number; named: number; withSession: number; users: number; sessions: number };
  /** Events per bucket of `stepMs` from `bucketFrom` (index, count); empty buckets absent. */
  buckets: { bucket: number; events: number }[];
  /** Actions by name and kind, most events first, then name and kind; at most `topLimit`. */
  top: { name: string; kind: string; events: number; users: number; sessions: number }[];
  /** Distinct (name, kind) pairs in range. */
  actionCount: number;
};

/** Top-level property keys with the number of actions holding each JSON type. */
export type ActionPropertyCount = { key: string; type: string; events: number };

/** Which id identifies the unit of an analysis: `session_id` or `distinct_id`. */
export type AnalysisUnitColumn = 'session_id' | 'distinct_id';

/** Counts over every action in range (the funnel's coverage). */
export type ActionCoverageCounts = {
  events: number;
  /** `kind` is `page_view`, `screen_view` or `interaction`. */
  classified: number;
  /** `name` is not blank (spaces, tabs and line breaks only). */
  named: number;
  /** The unit column is present. */
  unitIdentified: number;
  /** Distinct values of the unit column. */
  units: number;
};

/** One project's actions in range and filters, counted per `unit`. */
export type ActionUnitRange = ActionFilteredRange & { unit: AnalysisUnitColumn };

/** A funnel over the actions in range (see `computeFunnel`) with the coverage counts. */
export type ActionFunnelCounts = ActionCoverageCounts & {
  /** Units (with the unit id) completing each step in order, in step order. */
  stepUnits: number[];
  /** Actions matching a step (kind and name). */
  selected: number;
  /** Of them, those carrying the unit id. */
  usable: number;
};

/** One analytics segment's actions (segment comparison); `match` is "any action" when null. */
export type ActionSegmentQuery = ActionFilteredRange & {
  unit: AnalysisUnitColumn;
  match: { kind: string; name: string } | null;
  /** Top actions listed (0 skips that query). */
  topLimit: number;
};

export type ActionSegmentCounts = {
  /** Every action in the segment's range and filters, matching or not. */
  all: number;
  /** Matching actions. */
  events: number;
  /** Matching actions carrying the unit column. */
  unitIdentified: number;
  /** Distinct unit values among the matching actions. */
  units: number;
  /** Matching actions by name and kind, most events first, then name and kind. */
  top: { name: string; kind: string; events: number; units: number }[];
};

export interface ActionsStore {
  /** Matching actions, newest first (occurred_at DESC, id DESC), at most `limit`. */
  list(q: ActionListQuery): Promise<ActionRecord[]>;
  /** A funnel of `steps` completed within `windowMs` of the entry (see `computeFunnel`). */
  funnel(
    q: ActionUnitRange & { steps: FunnelStepDef[]; windowMs: number },
  ): Promise<ActionFunnelCounts>;
  /**
   * Users' (`distinct_id`) retention activity in periods of `periodMs` from `from`, users of
   * equal activity counted together (see `computeRetention`); and the actions counted.
   */
  retention(
    q: ActionFilteredRange & { periodMs: number; start: EventMatcher; ret: EventMatcher },
  ): Promise<{
    events: number;
    startEvents: number;
    returnEvents: number;
    activities: RetentionActivity[];
  }>;
  /** Users' active periods (of `periodMs` from `from`), equal ones counted together. */
  lifecycle(q: ActionFilteredRange & { periodMs: number; event: EventMatcher }): Promise<{
    events: number;
    matchingEvents: number;
    activities: LifecycleActivity[];
  }>;
  /** Each unit's path (see `computePaths`), counted per path in no particular order. */
  paths(q: ActionUnitRange & { start: EventMatcher; depth: number }): Promise<{
    events: number;
    unitIdentified: number;
    units: number;
    paths: { steps: PathStep[]; units: number }[];
  }>;
  /** Counts of one segment's matching actions and its top actions. */
  segment(q: ActionSegmentQuery): Promise<ActionSegmentCounts>;
  /** Totals, events per bucket and the top actions in range. */
  overview(
    q: ActionFilteredRange & { bucketFrom: number; stepMs: number; topLimit: number },
  ): Promise<ActionOverviewCounts>;
  /** Counts of top-level property keys and their types; and how many actions are in range. */
  properties(
    q: ActionFilteredRange,
  ): Promise<{ events: number; withProperties: number; keys: ActionPropertyCount[] }>;
}

/** A stored metric sample: `id` is the service's row id, `eventId` the item id sent. */
export type MetricRecord = Omit<MetricEvent, 'kind' | 'attributesJson' | 'bytes' | 'id'> & {
  id: string;
  eventId: string;
  projectId: string;
};

export type MetricGroupBy = 'none' | 'service_name' | 'release' | 'environment';

/** `GET /api/telemetry/metrics/series`, validated; buckets are [from + i * step, …). */
export type MetricSeriesQuery = {
  projectId: string;
  name: string;
  from: number;
  to: number;
  stepMs: number;
  groupBy: MetricGroupBy;
  serviceName: string | null;
  release: string | null;
  environment: string | null;
};

/** Per group key and bucket index: sample count, sum, maximum. */
export type MetricSeriesCells = {
  /** The newest sample's kind, unit and temporality in range; null without samples. */
  kind: MetricEvent['metricKind'] | null;
  unit: string | null;
  temporality: MetricEvent['temporality'];
  cells: { key: string | null; bucket: number; samples: number; sum: number; max: number }[];
};

export interface MetricsStore {
  /** Matching samples, newest first (occurred_at DESC, id DESC), at most `limit`. */
  list(q: TimeListQuery): Promise<MetricRecord[]>;
  series(q: MetricSeriesQuery): Promise<MetricSeriesCells>;
}

/** `GET /api/telemetry/summary/volume`, validated; `from`/`to` are whole buckets of `stepMs`. */
export type VolumeQuery = {
  projectIds: string[];
  from: number;
  to: number;
  stepMs: number;
  serviceName: string | null;
  release: string | null;
  environment: string | null;
};

export interface VolumeStore {
  /** Events and bytes per stream and bucket index (buckets without events are absent). */
  buckets(
    q: VolumeQuery,
  ): Promise<{ stream: Stream; bucket: number; events: number; bytes: number }[]>;
}

export type DeploymentStatus = 'succeeded' | 'failed';

export type DeploymentRecord = {
  projectId: string;
  deploymentId: string;
  release: string;
  environment: string;
  serviceName: string;
  status: DeploymentStatus;
  startedAt: number;
  finishedAt: number;
  commitSha: string | null;
  createdAt: number;
};

export type DeploymentListQuery = {
  projectIds: string[];
  status: DeploymentStatus | null;
  /** Epoch ms, both inclusive, compared with `finishedAt`. */
  since: number | null;
  until: number | null;
  /** Rows strictly after this position in (finished_at, project, deployment id) descending order. */
  after: { time: number; projectId: string; deploymentId: string } | null;
  limit: number;
};

export interface DeploymentsStore {
  get(projectId: string, deploymentId: string): Promise<DeploymentRecord | null>;
  /**
   * Stores the deployment unless one with its id exists in the project; returns what is
   * stored then and whether this call created it.
   */
  put(
    record: DeploymentRecord,
    createdBy: string,
  ): Promise<{ stored: DeploymentRecord; created: boolean }>;
  /** Matching deployments, newest finish first, at most `limit`. */
  list(q: DeploymentListQuery): Promise<DeploymentRecord[]>;
}
