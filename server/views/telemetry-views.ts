import type { ActionEvent, SpanEvent } from '../core/batch';
import type { LogRecord, LogRule } from '../core/store/telemetry/logs';
import type { MetricRecord } from '../core/store/telemetry/metrics';

/**
 * The canonical records the service returns, shared by the read routes and the live feed
 * so both say the same thing about the same item.
 */
export const iso = (ms: number) => new Date(ms).toISOString();

export const traceAction = (traceId: string | null) =>
  traceId
    ? { code: 'inspect_trace', target: 'trace_summary' }
    : { code: 'inspect_related_logs', target: 'telemetry_logs' };

/** Effective severity after rules; the captured severity when no rule (or no override) applies. */
const triageOf = (severity: string, rule?: LogRule | null) => ({
  effective_severity: rule?.severity ?? severity,
  ignored: rule?.ignored ?? false,
  rule_applied: rule !== undefined && rule !== null,
});

/** Takes a stored log (reads) or a just-ingested `LogEvent` (live feed), which is a superset. */
export function logView(l: LogRecord) {
  return {
    id: l.id,
    project_id: l.projectId,
    level: l.severity,
    severity: l.severity,
    triage: triageOf(l.severity, l.rule),
    source: l.source,
    message: l.message,
    attributes: l.attributes,
    occurred_at: iso(l.occurredAt),
    environment: l.environment,
    release: l.release,
    service_name: l.service_name,
    trace_id: l.traceId,
    span_id: l.traceId ? l.spanId : null,
    sdk_name: l.sdk.name,
    sdk_version: l.sdk.version,
    next_action: traceAction(l.traceId),
  };
}

/** Takes a stored span (reads) or a just-ingested `SpanEvent` (live feed). */
export function spanView(s: Omit<SpanEvent, 'kind'> & { projectId: string }) {
  return {
    id: s.id,
    project_id: s.projectId,
    trace_id: s.traceId,
    span_id: s.spanId,
    parent_span_id: s.parentSpanId,
    name: s.name,
    operation: s.operation,
    kind: s.spanKind,
    service_name: s.service_name,
    environment: s.environment,
    release: s.release,
    started_at: iso(s.startedAt),
    duration_ms: s.durationMs,
    status: s.status === 'error' ? ('error' as const) : null,
    status_message: s.statusMessage,
    attributes: s.attributes,
    events: s.events.map((e) => ({
      name: e.name,
      timestamp: e.timestamp,
      attributes: e.attributes ?? {},
    })),
    sdk_name: s.sdk.name,
    sdk_version: s.sdk.version,
    next_action: { code: 'inspect_trace', target: 'trace_summary' },
  };
}

export function actionView(a: Omit<ActionEvent, 'kind'> & { projectId: string }) {
  return {
    id: a.id,
    project_id: a.projectId,
    name: a.name,
    kind: a.actionKind,
    distinct_id: a.distinctId,
    session_id: a.sessionId,
    occurred_at: iso(a.occurredAt),
    properties: a.properties,
    environment: a.environment,
    release: a.release,
    service_name: a.service_name,
    trace_id: a.traceId,
    ...(a.spanId ? { span_id: a.spanId } : {}),
    next_action: traceAction(a.traceId),
  };
}

export function metricView(m: MetricRecord) {
  return {
    id: m.id,
    event_id: m.eventId,
    project_id: m.projectId,
    name: m.name,
    kind: m.metricKind,
    value: m.value,
    unit: m.unit,
    temporality: m.temporality,
    attributes: m.attributes,
    occurred_at: iso(m.occurredAt),
    environment: m.environment,
    release: m.release,
    trace_id: m.traceId,
    span_id: m.traceId ? m.spanId : null,
    service_name: m.service_name,
    sdk_name: m.sdk.name,
    sdk_version: m.sdk.version,
  };
}
