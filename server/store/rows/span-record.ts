import type { SpanKind } from '../../domain/span-kind';
import type { SummaryInputSpan } from '../../domain/trace-summary';
import type { SpanRecord } from '../../core/store/telemetry/traces';

export type SpanRow = {
  id: string;
  project_id: string;
  trace_id: string;
  span_id: string;
  parent_span_id: string | null;
  name: string;
  operation: string | null;
  kind: SpanKind | null;
  service_name: string;
  environment: string;
  release: string;
  started_at: number;
  duration_ms: number;
  status: 'ok' | 'error' | null;
  status_message: string | null;
  attributes: string;
  events: string;
  sdk_name: string;
  sdk_version: string;
};

/** The columns every span read selects, in `SpanRow` order (same SQL in both stores). */
export const SPAN_COLUMNS = `id, project_id, trace_id, span_id, parent_span_id, name, operation, kind,
  service_name, environment, release, started_at, duration_ms, status, status_message, attributes,
  events, sdk_name, sdk_version`;

export const toSpanRecord = (r: SpanRow): SpanRecord => ({
  id: r.id,
  projectId: r.project_id,
  traceId: r.trace_id,
  spanId: r.span_id,
  parentSpanId: r.parent_span_id,
  name: r.name,
  operation: r.operation,
  spanKind: r.kind,
  service_name: r.service_name,
  environment: r.environment,
  release: r.release,
  startedAt: r.started_at,
  durationMs: r.duration_ms,
  status: r.status,
  statusMessage: r.status_message,
  attributes: JSON.parse(r.attributes) as Record<string, unknown>,
  events: JSON.parse(r.events) as SpanRecord['events'],
  sdk: { name: r.sdk_name, version: r.sdk_version },
});

const str = JSON.stringify;

/**
 * A span's JSON in the span list, built from its row as `spanView(toSpanRecord(row))` would
 * give it (span-record.test.ts compares them), without parsing and writing again the stored
 * attributes: they are `JSON.stringify` output already, which a round trip gives back as is.
 */
export function spanRowJson(r: SpanRow): string {
  const events =
    r.events === '[]'
      ? '[]'
      : str(
          (JSON.parse(r.events) as SpanRecord['events']).map((e) => ({
            name: e.name,
            timestamp: e.timestamp,
            attributes: e.attributes ?? {},
          })),
        );
  return `{"id":${str(r.id)},"project_id":${str(r.project_id)},"trace_id":${str(r.trace_id)},"span_id":${str(r.span_id)},"parent_span_id":${str(r.parent_span_id)},"name":${str(r.name)},"operation":${str(r.operation)},"kind":${str(r.kind)},"service_name":${str(r.service_name)},"environment":${str(r.environment)},"release":${str(r.release)},"started_at":"${new Date(r.started_at).toISOString()}","duration_ms":${str(r.duration_ms)},"status":${r.status === 'error' ? '"error"' : 'null'},"status_message":${str(r.status_message)},"attributes":${r.attributes},"events":${events},"sdk_name":${str(r.sdk_name)},"sdk_version":${str(r.sdk_version)},"next_action":{"code":"inspect_trace","target":"trace_summary"}}`;
}

export type SummarySpanRow = Omit<
  SpanRow,
  'id' | 'attributes' | 'events' | 'sdk_name' | 'sdk_version'
>;

/** The columns of a summary span (no attributes or events), in `SummarySpanRow` order. */
export const SUMMARY_SPAN_COLUMNS = `project_id, trace_id, span_id, parent_span_id, name, operation,
  kind, service_name, environment, release, started_at, duration_ms, status, status_message`;

export const toSummarySpan = (r: SummarySpanRow): SummaryInputSpan => ({
  projectId: r.project_id,
  spanId: r.span_id,
  parentSpanId: r.parent_span_id,
  name: r.name,
  serviceName: r.service_name,
  operation: r.operation,
  kind: r.kind,
  startedAt: r.started_at,
  durationMs: r.duration_ms,
  status: r.status,
  statusMessage: r.status_message,
  release: r.release,
  environment: r.environment,
});
