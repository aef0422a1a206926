import {
  BUNDLE_LIMITS as L,
  boundRecord,
  boundValue,
  clip,
  clipOrNull,
  type CutCounter,
} from '../domain/investigation-bounds';
import type { SummarySpan, TraceSummaryBody } from '../domain/trace-summary';
import type { ActionRecord } from '../core/store/telemetry/actions';
import type { LogRecord } from '../core/store/telemetry/logs';
import type { OccurrenceRecord } from '../core/store/telemetry/occurrences';
import type { SpanRecord } from '../core/store/telemetry/traces';
import { iso } from './telemetry-views';

/**
 * Bounded records of the investigation bundles. Every string that comes from the application
 * is cut to its documented limit and every cut is counted, so the bundle's coverage can say so.
 */

export type SubjectKind = 'issue' | 'trace' | 'span' | 'log' | 'action' | 'metric' | 'release';

/**
 * Every bundle carries application text (messages, names, attributes, release names), so its
 * subject is always `untrusted_telemetry`: the text is data, never instructions.
 */
export const CONTENT_TRUST = 'untrusted_telemetry' as const;

export type Subject = {
  kind: SubjectKind;
  id: string;
  project_id: string | null;
  name: string | null;
  status: string | null;
  content_trust: typeof CONTENT_TRUST;
  occurred_at: string | null;
  service_name: string | null;
  environment: string | null;
  release: string | null;
};

export function subject(
  kind: SubjectKind,
  fields: Partial<Omit<Subject, 'kind' | 'content_trust'>> & { id: string },
  cut: CutCounter,
): Subject {
  return {
    kind,
    id: fields.id,
    project_id: fields.project_id ?? null,
    name: clipOrNull(fields.name ?? null, L.line_chars, cut),
    status: fields.status ?? null,
    content_trust: CONTENT_TRUST,
    occurred_at: fields.occurred_at ?? null,
    service_name: fields.service_name ?? null,
    environment: fields.environment ?? null,
    release: fields.release ?? null,
  };
}

export function boundedOccurrence(o: OccurrenceRecord, cut: CutCounter) {
  return {
    id: o.id,
    issue_id: o.issueId,
    project_id: o.projectId,
    occurred_at: iso(o.occurredAt),
    severity: o.severity,
    title: clip(o.title, L.line_chars, cut),
    message: clip(o.message, L.text_chars, cut),
    exception: o.exception
      ? {
          type: clip(o.exception.type, L.line_chars, cut),
          value: clipOrNull(o.exception.value ?? null, L.text_chars, cut),
        }
      : null,
    attributes: boundRecord(o.attributes, cut),
    environment: o.environment,
    release: o.release,
    service_name: o.serviceName,
    trace_id: o.traceId,
    span_id: o.spanId,
    sdk_name: o.sdk.name,
    sdk_version: o.sdk.version,
  };
}

/** The last `breadcrumbs` ones (nearest to the error), each bounded like attributes. */
export function boundedBreadcrumbs(all: unknown[], cut: CutCounter) {
  const kept = all.slice(Math.max(0, all.length - L.breadcrumbs));
  return kept.map((b) => {
    if (b === null || typeof b !== 'object' || Array.isArray(b)) return boundValue(b, cut);
    const { message, ...rest } = b as Record<string, unknown>;
    const bounded = boundRecord(rest, cut);
    return typeof message === 'string'
      ? { ...bounded, message: clip(message, L.text_chars, cut) }
      : bounded;
  }) as Record<string, unknown>[];
}

export function boundedLog(l: LogRecord, cut: CutCounter) {
  return {
    id: l.id,
    project_id: l.projectId,
    occurred_at: iso(l.occurredAt),
    severity: l.severity,
    effective_severity: l.rule?.severity ?? l.severity,
    source: clip(l.source, L.line_chars, cut),
    message: clip(l.message, L.text_chars, cut),
    attributes: boundRecord(l.attributes, cut),
    service_name: l.service_name,
    environment: l.environment,
    release: l.release,
    trace_id: l.traceId,
    span_id: l.traceId ? l.spanId : null,
  };
}

export function boundedSummarySpan(s: SummarySpan, cut: CutCounter): SummarySpan {
  return {
    ...s,
    name: clip(s.name, L.line_chars, cut),
    status_message: clipOrNull(s.status_message, L.text_chars, cut),
  };
}

export function boundedSpan(s: SpanRecord, cut: CutCounter) {
  return {
    id: s.id,
    project_id: s.projectId,
    trace_id: s.traceId,
    span_id: s.spanId,
    parent_span_id: s.parentSpanId,
    name: clip(s.name, L.line_chars, cut),
    operation: s.operation,
    kind: s.spanKind,
    service_name: s.service_name,
    environment: s.environment,
    release: s.release,
    started_at: iso(s.startedAt),
    duration_ms: s.durationMs,
    status: s.status === 'error' ? ('error' as const) : null,
    status_message: clipOrNull(s.statusMessage, L.text_chars, cut),
    attributes: boundRecord(s.attributes, cut),
    events: s.events.slice(0, L.span_events).map((e) => ({
      name: clip(e.name, L.line_chars, cut),
      timestamp: e.timestamp,
      attributes: boundRecord(e.attributes ?? {}, cut),
    })),
  };
}

/** An action as the action list returns it, bounded (its ids are what that read shows). */
export function boundedAction(a: ActionRecord, cut: CutCounter) {
  return {
    id: a.id,
    project_id: a.projectId,
    name: clip(a.name, L.line_chars, cut),
    kind: a.actionKind,
    distinct_id: a.distinctId,
    session_id: a.sessionId,
    occurred_at: iso(a.occurredAt),
    properties: boundRecord(a.properties, cut),
    environment: a.environment,
    release: a.release,
    service_name: a.service_name,
    trace_id: a.traceId,
    span_id: a.spanId,
  };
}

/** A neighbouring action of the session: what happened, never who (no ids of people). */
export function neighbourAction(a: ActionRecord, cut: CutCounter) {
  return {
    id: a.id,
    name: clip(a.name, L.line_chars, cut),
    kind: a.actionKind,
    occurred_at: iso(a.occurredAt),
    trace_id: a.traceId,
  };
}

/** The trace summary with each list cut to its limit; the counts stay whole. */
export function boundedTraceSummary(s: TraceSummaryBody, cut: CutCounter) {
  const span = (x: SummarySpan) => boundedSummarySpan(x, cut);
  return {
    trace_id: s.trace_id,
    project_ids: s.project_ids.slice(0, L.trace_services),
    started_at: s.started_at,
    ended_at: s.ended_at,
    duration_ms: s.duration_ms,
    span_count: s.span_count,
    error_span_count: s.error_span_count,
    service_count: s.service_count,
    root_span: s.root_span ? span(s.root_span) : null,
    root_span_missing: s.root_span_missing,
    orphan_span_count: s.orphan_span_count,
    slowest_path: s.slowest_path.slice(0, L.slowest_path).map(span),
    services: s.services.slice(0, L.trace_services),
    releases: s.releases.slice(0, L.trace_services),
    environments: s.environments.slice(0, L.trace_services),
  };
}

/** How many list entries `boundedTraceSummary` left out. */
export function summaryOmitted(s: TraceSummaryBody): number {
  const over = (n: number, max: number) => Math.max(0, n - max);
  return (
    over(s.project_ids.length, L.trace_services) +
    over(s.slowest_path.length, L.slowest_path) +
    over(s.services.length, L.trace_services) +
    over(s.releases.length, L.trace_services) +
    over(s.environments.length, L.trace_services)
  );
}
