import type {
  AlertIncidentRecord,
  AlertKind,
  AlertNotificationRecord,
  AlertNotify,
  AlertOp,
  AlertRuleRecord,
  AlertsStore,
  DeliveryAttempt,
  DeliveryEvent,
  DeliveryRecord,
  DeliveryState,
  IncidentState,
  TimeId,
  WebhookRecord,
} from '../../../core/store/state/alerts';
import { insertReceipt } from '../../rows/idempotency';
import {
  join,
  raw,
  sql,
  where,
  type SqlDialect,
  type SqlFragment,
  type SqlRunner,
} from '../../rows/sql';

/**
 * Statements run in order in one transaction. `ifNone: 'abort'` rolls back (the answer is
 * false) when the statement touched no row; `'replay_taken'` throws `ReplayTakenError`.
 */
export type AtomicSteps = (
  steps: readonly { q: SqlFragment; ifNone?: 'abort' | 'replay_taken' }[],
) => Promise<boolean>;

type Num = number | string;
// PostgreSQL hands BIGINT (and COUNT) back as text.
const num = (v: Num) => Number(v);
const numOrNull = (v: Num | null) => (v === null ? null : Number(v));

type RuleRow = {
  id: string;
  project_id: string;
  organization_id: string;
  name: string;
  kind: AlertKind;
  condition: string;
  notify: string;
  resolve_threshold: Num | null;
  enabled: Num;
  muted_until: Num | null;
  created_by: string;
  created_at: Num;
  updated_at: Num;
  evaluated_through: Num | null;
  firing: Num;
  last_error: string | null;
  last_error_next: string | null;
  last_error_at: Num | null;
};

const RULE_COLUMNS = sql`r.id, r.project_id, r.organization_id, r.name, r.kind, r.condition,
  r.notify, r.resolve_threshold, r.enabled, r.muted_until, r.created_by, r.created_at,
  r.updated_at, r.evaluated_through, r.last_error, r.last_error_next, r.last_error_at,
  (SELECT COUNT(*) FROM alert_incidents i WHERE i.rule_id = r.id AND i.state = 'firing') AS firing`;

const toRule = (r: RuleRow): AlertRuleRecord => ({
  id: r.id,
  projectId: r.project_id,
  organizationId: r.organization_id,
  name: r.name,
  kind: r.kind,
  condition: JSON.parse(r.condition) as Record<string, unknown>,
  notify: JSON.parse(r.notify) as AlertNotify,
  resolveThreshold: numOrNull(r.resolve_threshold),
  enabled: num(r.enabled) === 1,
  mutedUntil: numOrNull(r.muted_until),
  createdBy: r.created_by,
  createdAt: num(r.created_at),
  updatedAt: num(r.updated_at),
  evaluatedThrough: numOrNull(r.evaluated_through),
  firing: num(r.firing) > 0,
  lastError:
    r.last_error === null || r.last_error_at === null
      ? null
      : { error: r.last_error, next: r.last_error_next ?? '', at: num(r.last_error_at) },
});

type IncidentRow = {
  id: string;
  rule_id: string;
  rule_name: string;
  project_id: string;
  kind: AlertKind;
  state: IncidentState;
  started_at: Num;
  resolved_at: Num | null;
  value: Num;
  threshold: Num;
  op: AlertOp;
  window_start: Num;
  window_end: Num;
  view_url: string;
};

const INCIDENT_COLUMNS = sql`id, rule_id, rule_name, project_id, kind, state, started_at,
  resolved_at, value, threshold, op, window_start, window_end, view_url`;

const toIncident = (r: IncidentRow): AlertIncidentRecord => ({
  id: r.id,
  ruleId: r.rule_id,
  ruleName: r.rule_name,
  projectId: r.project_id,
  kind: r.kind,
  state: r.state,
  startedAt: num(r.started_at),
  resolvedAt: numOrNull(r.resolved_at),
  value: num(r.value),
  threshold: num(r.threshold),
  op: r.op,
  windowStart: num(r.window_start),
  windowEnd: num(r.window_end),
  viewUrl: r.view_url,
});

type NotificationRow = {
  id: string;
  account_id: string;
  incident_id: string;
  rule_id: string;
  rule_name: string;
  project_id: string;
  event: 'firing' | 'resolved';
  at: Num;
  value: Num;
  threshold: Num;
  view_url: string;
};

const toNotification = (r: NotificationRow): AlertNotificationRecord => ({
  id: r.id,
  accountId: r.account_id,
  incidentId: r.incident_id,
  ruleId: r.rule_id,
  ruleName: r.rule_name,
  projectId: r.project_id,
  event: r.event,
  at: num(r.at),
  value: num(r.value),
  threshold: num(r.threshold),
  viewUrl: r.view_url,
});

type WebhookRow = {
  id: string;
  organization_id: string;
  name: string;
  url: string;
  secret: string;
  created_by: string;
  created_at: Num;
};

const toWebhook = (r: WebhookRow): WebhookRecord => ({
  id: r.id,
  organizationId: r.organization_id,
  name: r.name,
  url: r.url,
  secret: r.secret,
  createdBy: r.created_by,
  createdAt: num(r.created_at),
});

type DeliveryRow = {
  id: string;
  webhook_id: string;
  incident_id: string | null;
  event: DeliveryEvent;
  payload: string;
  created_at: Num;
  state: DeliveryState;
  next_attempt_at: Num | null;
};

type AttemptRow = {
  delivery_id: string;
  at: Num;
  status: Num | null;
  response_ms: Num | null;
  error: string | null;
};

const DELIVERY_COLUMNS = sql`id, webhook_id, incident_id, event, payload, created_at, state,
  next_attempt_at`;

/** Newest first by (time column, id), strictly after the cursor. */
const before = (column: string, after: TimeId | null, idColumn = 'id'): SqlFragment[] =>
  after === null
    ? []
    : [
        sql`(${raw(column)} < ${after.time} OR (${raw(column)} = ${after.time} AND ${raw(idColumn)} < ${after.id}))`,
      ];

const insertIncident = (i: AlertIncidentRecord) =>
  sql`INSERT INTO alert_incidents (${INCIDENT_COLUMNS}) VALUES (${i.id}, ${i.ruleId},
    ${i.ruleName}, ${i.projectId}, ${i.kind}, ${i.state}, ${i.startedAt}, ${i.resolvedAt},
    ${i.value}, ${i.threshold}, ${i.op}, ${i.windowStart}, ${i.windowEnd}, ${i.viewUrl})`;

const insertNotification = (n: AlertNotificationRecord) =>
  sql`INSERT INTO alert_notifications (id, account_id, incident_id, rule_id, rule_name,
    project_id, event, at, value, threshold, view_url) VALUES (${n.id}, ${n.accountId},
    ${n.incidentId}, ${n.ruleId}, ${n.ruleName}, ${n.projectId}, ${n.event}, ${n.at}, ${n.value},
    ${n.threshold}, ${n.viewUrl})`;

const insertDelivery = (d: DeliveryRecord) =>
  sql`INSERT INTO alert_deliveries (${DELIVERY_COLUMNS}, claimed_until) VALUES (${d.id},
    ${d.webhookId}, ${d.incidentId}, ${d.event}, ${d.payload}, ${d.createdAt}, ${d.state},
    ${d.nextAttemptAt}, NULL)`;

/** The alerts port on a `SqlRunner`: the same SQL on both engines. */
export function sqlAlerts(db: SqlRunner, dialect: SqlDialect, atomic: AtomicSteps): AlertsStore {
  const ruleById = async (id: string) => {
    const r = await db.one<RuleRow>(
      sql`SELECT ${RULE_COLUMNS} FROM alert_rules r WHERE r.id = ${id}`,
    );
    return r ? toRule(r) : null;
  };
  const withAttempts = async (rows: DeliveryRow[]): Promise<DeliveryRecord[]> => {
    if (rows.length === 0) return [];
    const attempts = await db.rows<AttemptRow>(sql`SELECT delivery_id, at, status, response_ms,
      error FROM alert_delivery_attempts WHERE ${dialect.anyOf(
        'delivery_id',
        rows.map((r) => r.id),
      )} ORDER BY delivery_id, n`);
    const byDelivery = new Map<string, DeliveryAttempt[]>();
    for (const a of attempts) {
      const list = byDelivery.get(a.delivery_id) ?? [];
      list.push({
        at: num(a.at),
        status: numOrNull(a.status),
        responseMs: numOrNull(a.response_ms),
        error: a.error,
      });
      byDelivery.set(a.delivery_id, list);
    }
    return rows.map((r) => ({
      id: r.id,
      webhookId: r.webhook_id,
      incidentId: r.incident_id,
      event: r.event,
      payload: r.payload,
      createdAt: num(r.created_at),
      state: r.state,
      attempts: byDelivery.get(r.id) ?? [],
      nextAttemptAt: numOrNull(r.next_attempt_at),
    }));
  };

  return {
    async createRule(r, receipt) {
      await atomic([
        {
          q: sql`INSERT INTO alert_rules (id, project_id, organization_id, name, kind, condition,
              notify, resolve_threshold, enabled, muted_until, created_by, created_at, updated_at,
              evaluated_through, lease_holder, lease_until)
            VALUES (${r.id}, ${r.projectId}, ${r.organizationId}, ${r.name}, ${r.kind},
              ${JSON.stringify(r.condition)}, ${JSON.stringify(r.notify)}, ${r.resolveThreshold},
              ${r.enabled ? 1 : 0}, ${r.mutedUntil}, ${r.createdBy}, ${r.createdAt},
              ${r.updatedAt}, ${r.evaluatedThrough}, NULL, NULL)`,
        },
        ...(receipt ? [{ q: insertReceipt(receipt), ifNone: 'replay_taken' as const }] : []),
      ]);
    },
    rule: ruleById,
    async rules(q) {
      if (q.projectIds.length === 0) return [];
      const conditions = [
        dialect.anyOf('r.project_id', q.projectIds),
        ...(q.kind === null ? [] : [sql`r.kind = ${q.kind}`]),
        ...before('r.created_at', q.after, 'r.id'),
      ];
      const rows = await db.rows<RuleRow>(sql`SELECT ${RULE_COLUMNS} FROM alert_rules r
        ${where(conditions)} ORDER BY r.created_at DESC, r.id DESC LIMIT ${q.limit}`);
      return rows.map(toRule);
    },
    async updateRule(ruleId, c) {
      const sets: SqlFragment[] = [sql`updated_at = ${c.updatedAt}`];
      if (c.name !== undefined) sets.push(sql`name = ${c.name}`);
      if (c.condition !== undefined) sets.push(sql`condition = ${JSON.stringify(c.condition)}`);
      if (c.notify !== undefined) sets.push(sql`notify = ${JSON.stringify(c.notify)}`);
      if (c.resolveThreshold !== undefined)
        sets.push(sql`resolve_threshold = ${c.resolveThreshold}`);
      if (c.enabled !== undefined) sets.push(sql`enabled = ${c.enabled ? 1 : 0}`);
      if (c.mutedUntil !== undefined) sets.push(sql`muted_until = ${c.mutedUntil}`);
      return (
        (await db.run(sql`UPDATE alert_rules SET ${join(sets, ', ')} WHERE id = ${ruleId}`)) > 0
      );
    },
    async deleteRule(ruleId) {
      return (await db.run(sql`DELETE FROM alert_rules WHERE id = ${ruleId}`)) > 0;
    },

    async dueRules(now, windowEnd, limit) {
      const rows = await db.rows<RuleRow>(sql`SELECT ${RULE_COLUMNS} FROM alert_rules r
        WHERE r.enabled = 1
          AND (r.evaluated_through IS NULL OR r.evaluated_through < ${windowEnd})
          AND (r.lease_until IS NULL OR r.lease_until <= ${now})
        ORDER BY r.evaluated_through, r.id LIMIT ${limit}`);
      return rows.map(toRule);
    },
    async claimRule(ruleId, holder, now, until) {
      return (
        (await db.run(sql`UPDATE alert_rules SET lease_holder = ${holder}, lease_until = ${until}
          WHERE id = ${ruleId} AND (lease_until IS NULL OR lease_until <= ${now})`)) > 0
      );
    },
    async releaseRule(ruleId, holder) {
      await db.run(sql`UPDATE alert_rules SET lease_holder = NULL, lease_until = NULL
        WHERE id = ${ruleId} AND lease_holder = ${holder}`);
    },
    async openIncident(ruleId) {
      const r = await db.one<IncidentRow>(sql`SELECT ${INCIDENT_COLUMNS} FROM alert_incidents
        WHERE rule_id = ${ruleId} AND state = 'firing' ORDER BY started_at DESC LIMIT 1`);
      return r ? toIncident(r) : null;
    },
    async recordEvaluation(e) {
      const from = e.fromWindowEnd ?? -1;
      const incidentStep = (): { q: SqlFragment; ifNone?: 'abort' }[] => {
        if (e.incident === null) return [];
        if (e.incident.change === 'open') return [{ q: insertIncident(e.incident.record) }];
        return [
          {
            q: sql`UPDATE alert_incidents SET state = 'resolved',
                resolved_at = ${e.incident.resolvedAt}, value = ${e.incident.value}
              WHERE id = ${e.incident.incidentId} AND state = 'firing'`,
            ifNone: 'abort',
          },
        ];
      };
      return atomic([
        {
          // Only the evaluation that saw the previous progress records this window.
          q: sql`UPDATE alert_rules SET evaluated_through = ${e.windowEnd}, last_error = NULL,
              last_error_next = NULL, last_error_at = NULL
            WHERE id = ${e.ruleId}
              AND COALESCE(evaluated_through, -1) = ${dialect.typed(from, 'bigint')}`,
          ifNone: 'abort',
        },
        ...incidentStep(),
        ...e.notifications.map((n) => ({ q: insertNotification(n) })),
        ...e.deliveries.map((d) => ({ q: insertDelivery(d) })),
      ]);
    },

    async incidents(q) {
      if (q.projectIds.length === 0) return [];
      const conditions = [
        dialect.anyOf('project_id', q.projectIds),
        ...(q.ruleId === null ? [] : [sql`rule_id = ${q.ruleId}`]),
        ...(q.state === null ? [] : [sql`state = ${q.state}`]),
        ...before('started_at', q.after),
      ];
      const rows = await db.rows<IncidentRow>(sql`SELECT ${INCIDENT_COLUMNS} FROM alert_incidents
        ${where(conditions)} ORDER BY started_at DESC, id DESC LIMIT ${q.limit}`);
      return rows.map(toIncident);
    },
    async incident(incidentId) {
      const r = await db.one<IncidentRow>(
        sql`SELECT ${INCIDENT_COLUMNS} FROM alert_incidents WHERE id = ${incidentId}`,
      );
      return r ? toIncident(r) : null;
    },

    async notifications(q) {
      const mark = await db.one<{ read_at: Num }>(
        sql`SELECT read_at FROM alert_notification_reads WHERE account_id = ${q.accountId}`,
      );
      const readAt = mark ? num(mark.read_at) : null;
      if (q.projectIds.length === 0) return { notifications: [], unread: 0, readAt };
      const mine = [sql`account_id = ${q.accountId}`, dialect.anyOf('project_id', q.projectIds)];
      const unread = await db.one<{ n: Num }>(sql`SELECT COUNT(*) AS n FROM alert_notifications
        ${where([...mine, ...(readAt === null ? [] : [sql`at > ${readAt}`])])}`);
      const rows =
        q.limit === 0
          ? []
          : await db.rows<NotificationRow>(sql`SELECT id, account_id, incident_id, rule_id,
              rule_name, project_id, event, at, value, threshold, view_url
            FROM alert_notifications ${where([...mine, ...before('at', q.after)])}
            ORDER BY at DESC, id DESC LIMIT ${q.limit}`);
      return { notifications: rows.map(toNotification), unread: num(unread?.n ?? 0), readAt };
    },
    async markNotificationsRead(accountId, at) {
      await db.run(sql`INSERT INTO alert_notification_reads (account_id, read_at)
        VALUES (${accountId}, ${at})
        ON CONFLICT (account_id) DO UPDATE SET read_at = CASE
          WHEN alert_notification_reads.read_at > excluded.read_at
          THEN alert_notification_reads.read_at ELSE excluded.read_at END`);
      const mark = await db.one<{ read_at: Num }>(
        sql`SELECT read_at FROM alert_notification_reads WHERE account_id = ${accountId}`,
      );
      return mark ? num(mark.read_at) : at;
    },

    async createWebhook(w, receipt) {
      await atomic([
        {
          q: sql`INSERT INTO alert_webhooks (id, organization_id, name, url, secret, created_by,
              created_at) VALUES (${w.id}, ${w.organizationId}, ${w.name}, ${w.url}, ${w.secret},
              ${w.createdBy}, ${w.createdAt})`,
        },
        ...(receipt ? [{ q: insertReceipt(receipt), ifNone: 'replay_taken' as const }] : []),
      ]);
    },
    async webhook(webhookId) {
      const r = await db.one<WebhookRow>(sql`SELECT id, organization_id, name, url, secret,
        created_by, created_at FROM alert_webhooks WHERE id = ${webhookId}`);
      return r ? toWebhook(r) : null;
    },
    async webhooks(organizationId) {
      const rows = await db.rows<WebhookRow>(sql`SELECT id, organization_id, name, url, secret,
        created_by, created_at FROM alert_webhooks WHERE organization_id = ${organizationId}
        ORDER BY created_at, id`);
      return rows.map(toWebhook);
    },
    async deleteWebhook(webhookId) {
      return atomic([
        { q: sql`DELETE FROM alert_webhooks WHERE id = ${webhookId}`, ifNone: 'abort' },
        {
          q: sql`DELETE FROM alert_delivery_attempts WHERE delivery_id IN (
            SELECT id FROM alert_deliveries WHERE webhook_id = ${webhookId})`,
        },
        { q: sql`DELETE FROM alert_deliveries WHERE webhook_id = ${webhookId}` },
      ]);
    },

    async enqueueDelivery(d) {
      await db.run(insertDelivery(d));
    },
    async delivery(deliveryId) {
      const rows = await db.rows<DeliveryRow>(
        sql`SELECT ${DELIVERY_COLUMNS} FROM alert_deliveries WHERE id = ${deliveryId}`,
      );
      return (await withAttempts(rows))[0] ?? null;
    },
    async deliveries(webhookId, after, limit) {
      const rows = await db.rows<DeliveryRow>(sql`SELECT ${DELIVERY_COLUMNS} FROM alert_deliveries
        ${where([sql`webhook_id = ${webhookId}`, ...before('created_at', after)])}
        ORDER BY created_at DESC, id DESC LIMIT ${limit}`);
      return withAttempts(rows);
    },
    async claimDueDeliveries(now, claimUntil, limit) {
      const due = await db.rows<{ id: string }>(sql`SELECT id FROM alert_deliveries
        WHERE state = 'pending' AND next_attempt_at <= ${now}
          AND (claimed_until IS NULL OR claimed_until <= ${now})
        ORDER BY next_attempt_at, id LIMIT ${limit}`);
      const claimed: string[] = [];
      for (const { id } of due) {
        const n = await db.run(sql`UPDATE alert_deliveries SET claimed_until = ${claimUntil}
          WHERE id = ${id} AND state = 'pending'
            AND (claimed_until IS NULL OR claimed_until <= ${now})`);
        if (n > 0) claimed.push(id);
      }
      if (claimed.length === 0) return [];
      const rows = await db.rows<DeliveryRow>(sql`SELECT ${DELIVERY_COLUMNS} FROM alert_deliveries
        WHERE ${dialect.anyOf('id', claimed)} ORDER BY next_attempt_at, id`);
      return withAttempts(rows);
    },
    async recordAttempt(deliveryId, a, next) {
      await atomic([
        {
          q: sql`INSERT INTO alert_delivery_attempts (delivery_id, n, at, status, response_ms,
              error) VALUES (${deliveryId},
              (SELECT COUNT(*) + 1 FROM alert_delivery_attempts WHERE delivery_id = ${deliveryId}),
              ${a.at}, ${a.status}, ${a.responseMs}, ${a.error})`,
        },
        {
          q: sql`UPDATE alert_deliveries SET state = ${next.state},
              next_attempt_at = ${next.nextAttemptAt}, claimed_until = NULL
            WHERE id = ${deliveryId}`,
        },
      ]);
    },

    async teamMemberIds(teamId) {
      const rows = await db.rows<{ account_id: string }>(sql`SELECT tm.account_id
        FROM team_members tm JOIN teams t ON t.id = tm.team_id
        JOIN memberships m ON m.organization_id = t.organization_id
          AND m.account_id = tm.account_id
        WHERE tm.team_id = ${teamId} ORDER BY tm.account_id`);
      return rows.map((r) => r.account_id);
    },
    async recordRuleError(ruleId, { error, next, at }) {
      await db.run(sql`UPDATE alert_rules SET last_error = ${error}, last_error_next = ${next},
          last_error_at = ${at} WHERE id = ${ruleId}`);
    },
    async snoozeIssue(s) {
      await db.run(sql`INSERT INTO issue_snoozes (issue_id, project_id, until, created_by,
          created_at) VALUES (${s.issueId}, ${s.projectId}, ${s.until}, ${s.createdBy},
          ${s.createdAt})
        ON CONFLICT (issue_id) DO UPDATE SET until = excluded.until,
          created_by = excluded.created_by, created_at = excluded.created_at`);
    },
    async unsnoozeIssue(issueId) {
      return (await db.run(sql`DELETE FROM issue_snoozes WHERE issue_id = ${issueId}`)) > 0;
    },
    async issueSnooze(issueId, now) {
      const r = await db.one<{
        issue_id: string;
        project_id: string;
        until: Num;
        created_by: string;
        created_at: Num;
      }>(sql`SELECT issue_id, project_id, until, created_by, created_at FROM issue_snoozes
        WHERE issue_id = ${issueId} AND until > ${now}`);
      return r
        ? {
            issueId: r.issue_id,
            projectId: r.project_id,
            until: num(r.until),
            createdBy: r.created_by,
            createdAt: num(r.created_at),
          }
        : null;
    },
    async snoozedIssues(issueIds, now) {
      if (issueIds.length === 0) return new Set();
      const rows = await db.rows<{ issue_id: string }>(sql`SELECT issue_id FROM issue_snoozes
        WHERE ${dialect.anyOf('issue_id', issueIds)} AND until > ${now}`);
      return new Set(rows.map((r) => r.issue_id));
    },
  };
}
