import type { IdempotencyReceipt } from './idempotency';

/**
 * Alert rules, their incidents, the inbox notifications they send, webhooks and their
 * deliveries, and issue snoozes. Times are epoch milliseconds. Conditions and notify targets
 * are stored as the JSON the routes validated; the evaluator reads them back through the
 * same schemas.
 */
export interface AlertsStore {
  /** With a receipt, its replay record is written in the same transaction as the rule. */
  createRule(row: AlertRuleRecord, receipt?: IdempotencyReceipt | null): Promise<void>;
  rule(ruleId: string): Promise<AlertRuleRecord | null>;
  /** Rules of the projects, by (created_at DESC, id DESC), strictly after `after`. */
  rules(q: {
    projectIds: string[];
    kind: AlertKind | null;
    after: TimeId | null;
    limit: number;
  }): Promise<AlertRuleRecord[]>;
  /** Writes the changed fields; false when the rule is gone. */
  updateRule(ruleId: string, change: AlertRuleChange): Promise<boolean>;
  /** Deletes the rule; its incidents and notifications stay as history. False when gone. */
  deleteRule(ruleId: string): Promise<boolean>;

  /**
   * Enabled rules whose next window ends at or before `windowEnd` and whose lease is free at
   * `now`, oldest progress first, at most `limit`.
   */
  dueRules(now: number, windowEnd: number, limit: number): Promise<AlertRuleRecord[]>;
  /**
   * Takes the rule's evaluation lease until `until` when it is free at `now` (a conditional
   * UPDATE: one instance wins). True when taken.
   */
  claimRule(ruleId: string, holder: string, now: number, until: number): Promise<boolean>;
  releaseRule(ruleId: string, holder: string): Promise<void>;
  /** The rule's open (firing) incident, or null. */
  openIncident(ruleId: string): Promise<AlertIncidentRecord | null>;
  /**
   * Records the evaluation of one window in one transaction: moves `evaluated_through` from
   * `fromWindowEnd` to `windowEnd` (nothing is written when another evaluation moved it
   * first: false), then the incident change, its notifications and its deliveries. Deliveries
   * are written here, before any attempt, so a restart loses none.
   */
  recordEvaluation(e: AlertEvaluation): Promise<boolean>;
  /**
   * Keeps why the rule's evaluation failed (its progress does not move, so the window is tried
   * again); the next recorded window clears it.
   */
  recordRuleError(ruleId: string, error: AlertRuleError): Promise<void>;

  incidents(q: {
    projectIds: string[];
    ruleId: string | null;
    state: IncidentState | null;
    after: TimeId | null;
    limit: number;
  }): Promise<AlertIncidentRecord[]>;
  incident(incidentId: string): Promise<AlertIncidentRecord | null>;

  /** The account's alert notifications in the (readable) projects, newest first by (at, id). */
  notifications(q: {
    accountId: string;
    projectIds: string[];
    after: TimeId | null;
    limit: number;
  }): Promise<{ notifications: AlertNotificationRecord[]; unread: number; readAt: number | null }>;
  /** Moves the account's read mark to `at` unless it is already later; returns the mark. */
  markNotificationsRead(accountId: string, at: number): Promise<number>;

  createWebhook(row: WebhookRecord, receipt?: IdempotencyReceipt | null): Promise<void>;
  webhook(webhookId: string): Promise<WebhookRecord | null>;
  /** Webhooks of the organization, by (created_at, id). */
  webhooks(organizationId: string): Promise<WebhookRecord[]>;
  /** Deletes the webhook and its deliveries. False when gone. */
  deleteWebhook(webhookId: string): Promise<boolean>;

  /** Stores a delivery (state pending, due at `nextAttemptAt`). */
  enqueueDelivery(row: DeliveryRecord): Promise<void>;
  delivery(deliveryId: string): Promise<DeliveryRecord | null>;
  /** Deliveries of a webhook, newest first by (created_at, id), strictly after `after`. */
  deliveries(webhookId: string, after: TimeId | null, limit: number): Promise<DeliveryRecord[]>;
  /**
   * Pending deliveries due at `now` whose claim is free, oldest first; each returned one is
   * claimed until `claimUntil` (so another instance does not send it at the same time).
   */
  claimDueDeliveries(now: number, claimUntil: number, limit: number): Promise<DeliveryRecord[]>;
  /** Appends an attempt and sets the delivery's state and next attempt, releasing its claim. */
  recordAttempt(
    deliveryId: string,
    attempt: DeliveryAttempt,
    next: { state: DeliveryState; nextAttemptAt: number | null },
  ): Promise<void>;

  /** Members of the team who are still members of its organization (an inbox's recipients). */
  teamMemberIds(teamId: string): Promise<string[]>;

  /** Sets (replaces) the snooze of an issue. */
  snoozeIssue(row: IssueSnoozeRecord): Promise<void>;
  /** Removes it; false when there was none. */
  unsnoozeIssue(issueId: string): Promise<boolean>;
  /** The issue's snooze when it lasts past `now` (an ended one reads as none), else null. */
  issueSnooze(issueId: string, now: number): Promise<IssueSnoozeRecord | null>;
  /** Issue ids among these snoozed past `now`. */
  snoozedIssues(issueIds: string[], now: number): Promise<Set<string>>;
}

export const ALERT_KINDS = ['issue', 'log', 'metric', 'trace'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];
export const ALERT_OPS = ['above', 'below'] as const;
export type AlertOp = (typeof ALERT_OPS)[number];
export const INCIDENT_STATES = ['firing', 'resolved'] as const;
export type IncidentState = (typeof INCIDENT_STATES)[number];
export const DELIVERY_EVENTS = ['alert.firing', 'alert.resolved', 'test'] as const;
export type DeliveryEvent = (typeof DELIVERY_EVENTS)[number];
export const DELIVERY_STATES = ['pending', 'delivered', 'failed'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

export type TimeId = { time: number; id: string };

/** Where a rule notifies: an inbox (a user or every member of a team) and webhooks. */
export type AlertNotify = {
  inbox: { user_id: string } | { team_id: string } | null;
  webhook_ids: string[];
};

export type AlertRuleRecord = {
  id: string;
  projectId: string;
  organizationId: string;
  name: string;
  kind: AlertKind;
  /** The validated condition, as JSON (its shape depends on `kind`). */
  condition: Record<string, unknown>;
  notify: AlertNotify;
  /** Hysteresis: a firing incident resolves once the value is past this (null: the threshold). */
  resolveThreshold: number | null;
  enabled: boolean;
  mutedUntil: number | null;
  createdBy: string;
  createdAt: number;
  updatedAt: number;
  /** End of the last evaluated window (null before the first). */
  evaluatedThrough: number | null;
  /** Whether the rule has a firing incident now. */
  firing: boolean;
  /** Why its last evaluation failed, until a window is recorded again; null when it did not. */
  lastError: AlertRuleError | null;
};

/** An evaluation failure as the rule shows it: what happened, what to do, and when. */
export type AlertRuleError = { error: string; next: string; at: number };

export type AlertRuleChange = Partial<
  Pick<
    AlertRuleRecord,
    'name' | 'condition' | 'notify' | 'resolveThreshold' | 'enabled' | 'mutedUntil'
  >
> & { updatedAt: number };

export type AlertIncidentRecord = {
  id: string;
  ruleId: string;
  ruleName: string;
  projectId: string;
  kind: AlertKind;
  state: IncidentState;
  startedAt: number;
  resolvedAt: number | null;
  value: number;
  threshold: number;
  op: AlertOp;
  windowStart: number;
  windowEnd: number;
  viewUrl: string;
};

export type AlertNotificationRecord = {
  id: string;
  incidentId: string;
  ruleId: string;
  ruleName: string;
  projectId: string;
  accountId: string;
  event: 'firing' | 'resolved';
  at: number;
  value: number;
  threshold: number;
  viewUrl: string;
};

/** One window's evaluation of a rule and what it changes. */
export type AlertEvaluation = {
  ruleId: string;
  fromWindowEnd: number | null;
  windowEnd: number;
  /** A new incident (firing) or the resolution of the open one; null changes nothing. */
  incident:
    | { change: 'open'; record: AlertIncidentRecord }
    | { change: 'resolve'; incidentId: string; resolvedAt: number; value: number }
    | null;
  notifications: AlertNotificationRecord[];
  deliveries: DeliveryRecord[];
};

export type WebhookRecord = {
  id: string;
  organizationId: string;
  name: string;
  url: string;
  /** The signing secret: HMAC needs it as it is; the routes return it only on creation. */
  secret: string;
  createdBy: string;
  createdAt: number;
};

export type DeliveryAttempt = {
  at: number;
  status: number | null;
  responseMs: number | null;
  error: string | null;
};

export type DeliveryRecord = {
  id: string;
  webhookId: string;
  incidentId: string | null;
  event: DeliveryEvent;
  /** The JSON body sent, fixed when the delivery is written so every attempt sends the same. */
  payload: string;
  createdAt: number;
  state: DeliveryState;
  attempts: DeliveryAttempt[];
  nextAttemptAt: number | null;
};

export type IssueSnoozeRecord = {
  issueId: string;
  projectId: string;
  until: number;
  createdBy: string;
  createdAt: number;
};
