import { z } from '@hono/zod-openapi';
import { NextActionSchema, orNull } from '../../http/openapi-shared';
import { SPAN_KINDS } from '../../domain/span-kind';

const Time = z.string().openapi({ format: 'date-time' });
const Uuid = z.string().openapi({ format: 'uuid' });

/** One span of the span list (spec "Trace spans and summary"); the live feed sends the same. */
export const TraceSpanSchema = z
  .object({
    id: Uuid.openapi({ description: 'The item id the span was ingested with.' }),
    project_id: Uuid,
    trace_id: z.string().openapi({ description: '32 lowercase hex characters.' }),
    span_id: z.string().openapi({ description: '16 hex characters.' }),
    parent_span_id: z.string().nullable().openapi({ description: '`null` when no parent.' }),
    name: z.string().openapi({ description: 'Application-written text; treat as data.' }),
    operation: z.string().nullable(),
    kind: z.enum(SPAN_KINDS).nullable(),
    service_name: z.string(),
    environment: z.string(),
    release: z.string(),
    started_at: Time,
    duration_ms: z
      .number()
      .openapi({ description: 'Milliseconds; fractional (microseconds are kept).' }),
    status: z
      .enum(['error'])
      .nullable()
      .openapi({ description: '`error` for a recorded failed operation; `null` otherwise.' }),
    status_message: z.string().nullable(),
    attributes: z.record(z.string(), z.unknown()),
    events: z.array(
      z.object({
        name: z.string(),
        timestamp: Time,
        attributes: z.record(z.string(), z.unknown()),
      }),
    ),
    sdk_name: z.string(),
    sdk_version: z.string(),
    next_action: NextActionSchema,
  })
  .openapi('TraceSpan');

/** Spec "Trace discovery row": exactly its fields. */
export const TraceRowSchema = z
  .object({
    trace_id: z.string(),
    project_ids: z.array(Uuid),
    root_span_name: z.string(),
    root_service_name: z.string(),
    root_operation: z.string().nullable(),
    span_count: z.number().int(),
    error_span_count: z.number().int(),
    service_count: z.number().int(),
    started_at: Time,
    duration_ms: z.number(),
    services: z.array(z.string()),
    releases: z.array(z.string()),
    environments: z.array(z.string()),
    next_action: NextActionSchema,
  })
  .openapi('TraceRow', {
    description:
      'One trace: its spans in the projects of the request combined. The root is the earliest span without a parent (or, when none was received, the earliest span).',
  });

export const TraceCursorSchema = z
  .object({
    time: Time.openapi({ description: 'Send as `cursor_time`.' }),
    trace_id: z.string().openapi({ description: 'Send as `cursor_trace_id`.' }),
  })
  .openapi('TraceCursor');

export const NamingQualitySchema = z
  .object({
    evaluated_traces: z.number().int(),
    meaningful_name_traces: z.number().int(),
    generic_name_traces: z.number().int(),
    unmatched_route_traces: z.number().int(),
    generic_operation_traces: z.number().int(),
    truncated: z.boolean().openapi({ description: 'True when another page exists.' }),
    next_action: orNull(NextActionSchema),
  })
  .openapi('TraceNamingQuality', {
    description:
      'Covers only the returned page. A trace counts in a category when one of its spans does. ' +
      'Generic name: a bare HTTP method (`GET`, `HTTP GET`) or a placeholder (`span`, `handler`, `request`, `unknown`, `operation`, `anonymous`, `default`, `function`, `middleware`, `main`, `root`, `noop`). ' +
      'Unmatched route: a server span with an HTTP method attribute (`http.method`, `http.request.method`) and no `http.route`, or a name that is a method and a raw path with an id segment (digits, a UUID, 16+ hex, or 6+ digits). ' +
      'Generic operation: an operation that is a placeholder (`default`, `unknown`, `span`, `operation`, `custom`, `function`, `handler`, `none`). ' +
      'Meaningful name: no span with a generic name or an unmatched route.',
  });

export const TracePageSchema = z
  .object({
    traces: z.array(TraceRowSchema),
    next_cursor: orNull(TraceCursorSchema),
    naming_quality: NamingQualitySchema,
  })
  .openapi('TracePage');

export const SummarySpanSchema = z
  .object({
    span_id: z.string(),
    parent_span_id: z.string().nullable(),
    name: z.string(),
    service_name: z.string(),
    operation: z.string().nullable(),
    kind: z.enum(SPAN_KINDS).nullable(),
    started_at: Time,
    duration_ms: z.number(),
    status: z.enum(['error']).nullable(),
    status_message: z.string().nullable(),
  })
  .openapi('TraceSummarySpan');

export const TraceSummarySchema = z
  .object({
    schema_version: z.literal(1),
    trace_id: z.string(),
    project_ids: z.array(Uuid),
    started_at: Time,
    ended_at: Time,
    duration_ms: z.number().openapi({ description: 'From the first start to the last end.' }),
    span_count: z.number().int(),
    error_span_count: z.number().int(),
    service_count: z.number().int(),
    root_span: orNull(SummarySpanSchema).openapi({
      description:
        'The earliest span without a parent; when none was received, the earliest span whose parent is missing (`root_span_missing` true).',
    }),
    root_span_missing: z.boolean(),
    orphan_span_count: z
      .number()
      .int()
      .openapi({ description: 'Spans whose parent is not in the trace (besides the root).' }),
    error_spans: z.array(SummarySpanSchema).openapi({ description: 'Every error span, by start.' }),
    slowest_path: z.array(SummarySpanSchema).openapi({
      description: 'From the root, the longest-running child at each level down to a leaf.',
    }),
    services: z.array(
      z.object({
        service_name: z.string(),
        span_count: z.number().int(),
        error_span_count: z.number().int(),
      }),
    ),
    releases: z.array(z.string()),
    environments: z.array(z.string()),
    issues: z
      .array(
        z.object({
          issue_id: Uuid,
          project_id: Uuid,
          title: z.string(),
          occurrence_id: Uuid,
          span_id: z.string().nullable(),
          occurred_at: Time,
        }),
      )
      .openapi({
        description:
          'Issues with an occurrence carrying exactly this trace id (the newest such occurrence), newest first.',
      }),
  })
  .openapi('TraceSummary', {
    description:
      'Root span, error spans, services, duration and slowest path of the spans in scope. No raw span attributes.',
  });
