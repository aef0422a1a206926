import { z } from '@hono/zod-openapi';
import {
  IssueConditionSchema,
  LogConditionSchema,
  MetricConditionSchema,
  TraceConditionSchema,
} from '../../alerts/alert-conditions';
import {
  ALERT_KINDS,
  ALERT_OPS,
  DELIVERY_EVENTS,
  DELIVERY_STATES,
  INCIDENT_STATES,
  type AlertNotificationRecord,
  type AlertRuleRecord,
  type DeliveryRecord,
  type TimeId,
  type WebhookRecord,
} from '../../core/store/state/alerts';
import { invalid } from '../../domain/read-rules/read-rule-error';
import { UUID_SOURCE, isUuid } from '../../domain/read-rules/uuid';
import { orNull } from '../../http/openapi-shared';
import { iso } from '../../views/telemetry-views';

const time = z.string().openapi({ format: 'date-time' });
const uuid = z.string().openapi({ format: 'uuid' });

export const NotifySchema = z
  .object({
    inbox: z
      .union([
        z.object({ user_id: z.uuid() }).strict(),
        z.object({ team_id: z.uuid() }).strict(),
        z.null(),
      ])
      .openapi({
        description: 'A member of the organization, a team of it (every member), or null.',
      }),
    webhook_ids: z
      .array(z.uuid())
      .max(10)
      .openapi({ description: 'Webhooks of the organization, at most 10.' }),
  })
  .strict()
  .openapi('AlertNotify');

const ruleFields = {
  name: z.string().trim().min(1).max(200),
  notify: NotifySchema,
  enabled: z.boolean().optional().openapi({ description: '`true` when omitted.' }),
  resolve_threshold: z.number().finite().nullable().optional().openapi({
    description:
      'Hysteresis: a firing incident resolves once the value is past this (below it for `above`, above it for `below`); default the threshold.',
  }),
};

/** One variant per kind: `condition` is checked again by kind (alert-conditions.ts). */
const kindVariants = {
  issue: IssueConditionSchema,
  log: LogConditionSchema,
  metric: MetricConditionSchema,
  trace: TraceConditionSchema,
};

export const RuleBody = z
  .object({
    project_id: z.uuid(),
    kind: z.enum(ALERT_KINDS),
    condition: z.record(z.string(), z.unknown()).openapi({
      description:
        'By kind: AlertIssueCondition, AlertLogCondition, AlertMetricCondition or AlertTraceCondition.',
    }),
    ...ruleFields,
  })
  .strict()
  .openapi('AlertRuleCreate');

export const RulePatchBody = z
  .object({
    name: ruleFields.name.optional(),
    condition: z.record(z.string(), z.unknown()).optional(),
    notify: NotifySchema.optional(),
    enabled: z.boolean().optional(),
    resolve_threshold: ruleFields.resolve_threshold,
    muted_until: z.string().nullable().optional().openapi({
      format: 'date-time',
      description: 'RFC3339: the rule evaluates but notifies nobody until then; null unmutes.',
    }),
  })
  .strict()
  .openapi('AlertRulePatch');

export const PreviewBody = z
  .object({
    project_id: z.uuid(),
    kind: z.enum(ALERT_KINDS),
    condition: z.record(z.string(), z.unknown()),
    resolve_threshold: ruleFields.resolve_threshold,
  })
  .strict()
  .openapi('AlertPreviewRequest');

export const RuleSchema = z
  .object({
    id: uuid,
    project_id: uuid,
    name: z.string(),
    kind: z.enum(ALERT_KINDS),
    condition: z.union([
      kindVariants.issue,
      kindVariants.log,
      kindVariants.metric,
      kindVariants.trace,
    ]),
    notify: NotifySchema,
    resolve_threshold: z.number().nullable(),
    enabled: z.boolean(),
    muted_until: orNull(time),
    state: z.enum(['ok', 'firing']).openapi({ description: '`firing` while an incident is open.' }),
    last_evaluated_window_end: orNull(time),
    last_error: z
      .object({
        error: z.string().openapi({ description: 'What went wrong.' }),
        next: z.string().openapi({ description: 'What to do about it.' }),
        at: time,
      })
      .nullable()
      .openapi({
        description:
          'Why the last evaluation failed (the window is tried again every interval); null once a window is recorded again.',
      }),
    created_at: time,
    updated_at: time,
  })
  .openapi('AlertRule');

export const ruleView = (r: AlertRuleRecord) => ({
  id: r.id,
  project_id: r.projectId,
  name: r.name,
  kind: r.kind,
  // Stored as validated by the kind's schema, so it is one of the variants.
  condition: r.condition as z.output<typeof kindVariants.issue>,
  notify: r.notify,
  resolve_threshold: r.resolveThreshold,
  enabled: r.enabled,
  muted_until: r.mutedUntil === null ? null : iso(r.mutedUntil),
  state: r.firing ? ('firing' as const) : ('ok' as const),
  last_evaluated_window_end: r.evaluatedThrough === null ? null : iso(r.evaluatedThrough),
  last_error:
    r.lastError === null
      ? null
      : { error: r.lastError.error, next: r.lastError.next, at: iso(r.lastError.at) },
  created_at: iso(r.createdAt),
  updated_at: iso(r.updatedAt),
});

export const IncidentSchema = z
  .object({
    id: uuid,
    rule_id: uuid,
    rule_name: z.string(),
    project_id: uuid,
    kind: z.enum(ALERT_KINDS),
    state: z.enum(INCIDENT_STATES),
    started_at: time,
    resolved_at: orNull(time),
    value: z.number().openapi({
      description: 'The value that fired it; once resolved, the value that resolved it.',
    }),
    threshold: z.number(),
    op: z.enum(ALERT_OPS),
    window_start: time,
    window_end: time,
    view_url: z.string().openapi({
      description: 'Console path reproducing the query over the window, with absolute times.',
    }),
  })
  .openapi('AlertIncident');

export const NotificationSchema = z
  .object({
    id: uuid,
    incident_id: uuid,
    rule_id: uuid,
    rule_name: z.string(),
    project_id: uuid,
    event: z.enum(['firing', 'resolved']),
    at: time,
    value: z.number(),
    threshold: z.number(),
    view_url: z.string(),
    read: z.boolean().openapi({ description: 'At or before your read mark.' }),
  })
  .openapi('AlertNotification');

export const notificationView = (n: AlertNotificationRecord, readAt: number | null) => ({
  id: n.id,
  incident_id: n.incidentId,
  rule_id: n.ruleId,
  rule_name: n.ruleName,
  project_id: n.projectId,
  event: n.event,
  at: iso(n.at),
  value: n.value,
  threshold: n.threshold,
  view_url: n.viewUrl,
  read: readAt !== null && n.at <= readAt,
});

export const WebhookSchema = z
  .object({
    id: uuid,
    organization_id: uuid,
    name: z.string(),
    url: z.string(),
    created_at: time,
  })
  .openapi('AlertWebhook');

export const webhookView = (w: WebhookRecord) => ({
  id: w.id,
  organization_id: w.organizationId,
  name: w.name,
  url: w.url,
  created_at: iso(w.createdAt),
});

export const DeliverySchema = z
  .object({
    id: uuid,
    webhook_id: uuid,
    incident_id: orNull(uuid),
    event: z.enum(DELIVERY_EVENTS),
    created_at: time,
    state: z.enum(DELIVERY_STATES),
    attempts: z.array(
      z.object({
        at: time,
        status: z
          .number()
          .int()
          .nullable()
          .openapi({ description: 'HTTP status; null when no answer came.' }),
        response_ms: z.number().int().nullable(),
        error: z
          .string()
          .nullable()
          .openapi({ description: 'Why no 2xx came (timeout, refused, status).' }),
      }),
    ),
    next_attempt_at: orNull(time),
  })
  .openapi('AlertDelivery');

export const deliveryView = (d: DeliveryRecord) => ({
  id: d.id,
  webhook_id: d.webhookId,
  incident_id: d.incidentId,
  event: d.event,
  created_at: iso(d.createdAt),
  state: d.state,
  attempts: d.attempts.map((a) => ({
    at: iso(a.at),
    status: a.status,
    response_ms: a.responseMs,
    error: a.error,
  })),
  next_attempt_at: d.nextAttemptAt === null ? null : iso(d.nextAttemptAt),
});

/** `cursor`: the position after the last item of a page, `<epoch ms>_<id>`; send it unchanged. */
export const encodeCursor = (c: TimeId): string => `${c.time}_${c.id}`;

const CURSOR = new RegExp(`^(\\d{1,15})_(${UUID_SOURCE})$`);

/** Reads a `cursor` a list returned; anything else is `422`. */
export function decodeCursor(value: string | undefined): TimeId | null {
  if (value === undefined) return null;
  const m = CURSOR.exec(value);
  if (m === null)
    throw invalid(
      'cursor must be a next_cursor this list returned',
      'Send next_cursor unchanged, or omit cursor for the first page.',
    );
  return { time: Number(m[1]), id: (m[2] ?? '').toLowerCase() };
}

/** A UUID query key, checked (`422`), in lower case. */
export function uuidKey(name: string, value: string): string;
export function uuidKey(name: string, value: string | undefined): string | null;
export function uuidKey(name: string, value: string | undefined): string | null {
  if (value === undefined) return null;
  if (!isUuid(value)) throw invalid(`${name} must be a UUID`);
  return value.toLowerCase();
}

/** The page and its cursor from `limit + 1` rows. */
export function page<R, V>(
  rows: R[],
  limit: number,
  position: (r: R) => TimeId,
  view: (r: R) => V,
): { items: V[]; next_cursor: string | null } {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return {
    items: items.map(view),
    next_cursor: rows.length > limit && last !== undefined ? encodeCursor(position(last)) : null,
  };
}

export const CURSOR_FACETS = { pattern: CURSOR.source };
