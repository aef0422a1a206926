import { z } from '@hono/zod-openapi';
import { SEVERITY_INPUTS } from '../domain/severity';
import { SPAN_KINDS } from '../domain/span-kind';
import { SPAN_ID, TRACE_ID } from '../domain/trace-ids';

/**
 * The telemetry items both ingest routes accept. Each item carries its own id (a UUID the
 * sender chooses and keeps on retry), so a re-sent item is recognised and not stored twice.
 * `release`, `environment` and `service_name` may be set once on the envelope (native) or in
 * `context` (SDK) and overridden per item; after that merge none may be missing or blank.
 */

const UUID_RE = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

export const ItemId = z
  .string()
  .regex(UUID_RE, 'must be a UUID')
  .transform((s) => s.toLowerCase())
  .openapi({ format: 'uuid', description: 'Chosen by the sender; keep it on retry.' });

export const Timestamp = z.iso
  .datetime({ message: 'must be an RFC3339 timestamp in UTC (ending in Z)' })
  .openapi({ example: '2026-11-20T14:03:07.412Z' });

export const TraceId = z
  .string()
  .regex(TRACE_ID, 'must be 32 lowercase hex characters')
  .openapi({ example: '4bf92f3577b34da6a3ce929d0e0e4736' });

export const SpanId = z
  .string()
  .regex(SPAN_ID, 'must be 16 lowercase hex characters')
  .openapi({ example: '00f067aa0ba902b7' });

/** Optional on an item, required after the merge with the envelope or context. */
export const ContextValue = z
  .string()
  .max(200)
  .refine((s) => s.trim().length > 0, 'must not be blank');

export const SeverityInput = z
  .string()
  .refine((s) => SEVERITY_INPUTS.includes(s), {
    message: 'must be info, warning, error or critical (aliases: trace, debug, warn, fatal)',
  })
  .openapi({ example: 'error' });

/**
 * How deep attributes (and properties, breadcrumb data) may nest, counting the attributes
 * object itself as level 1. Storing them serializes them with JSON.stringify, which recurses
 * and overflows the stack a few thousand levels down (a 500); a 10 MiB body holds millions.
 */
export const MAX_ATTRIBUTE_DEPTH = 64;

/** Whether `value` nests objects or arrays deeper than `max` levels, checked without recursion. */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop() as [unknown, number];
    if (v === null || typeof v !== 'object') continue;
    if (depth > max) return true;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}

export const Attributes = z
  .record(z.string(), z.unknown())
  .refine((a) => !nestsDeeperThan(a, MAX_ATTRIBUTE_DEPTH), {
    message: `must not nest objects or arrays more than ${MAX_ATTRIBUTE_DEPTH} levels deep`,
  })
  .openapi({
    description: `Structured attributes: strings, numbers, booleans, nested objects and arrays, at most ${MAX_ATTRIBUTE_DEPTH} levels deep.`,
  });

const contextFields = {
  release: ContextValue.optional(),
  environment: ContextValue.optional(),
  service_name: ContextValue.optional(),
};

const severityFields = {
  severity: SeverityInput.optional(),
  level: SeverityInput.optional().openapi({ description: 'Compatibility alias of severity.' }),
};

export const Breadcrumb = z.object({
  timestamp: Timestamp,
  category: z.string().max(200).optional(),
  type: z.string().max(100).optional(),
  level: SeverityInput.optional(),
  message: z.string().max(8192).optional(),
  data: Attributes.optional(),
});

export const IssueItem = z
  .object({
    id: ItemId,
    occurred_at: Timestamp,
    ...severityFields,
    title: z.string().max(1024).optional(),
    message: z.string().max(65536),
    exception: z
      .object({ type: z.string().min(1).max(256), value: z.string().max(8192).optional() })
      .optional(),
    stack_trace: z.string().max(262144).nullable().optional(),
    fingerprint: z.string().min(1).max(256).optional(),
    attributes: Attributes.optional(),
    trace_id: TraceId.nullable().optional(),
    span_id: SpanId.nullable().optional(),
    breadcrumbs: z.array(Breadcrumb).max(200).optional(),
    breadcrumbs_truncated: z.boolean().optional(),
    ...contextFields,
  })
  .strict()
  .openapi('IngestIssue', {
    description: 'One error event; grouped into an issue by fingerprint.',
  });

export const LogItem = z
  .object({
    id: ItemId,
    occurred_at: Timestamp,
    ...severityFields,
    message: z.string().max(1048576),
    source: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .openapi({ description: 'Logger name; default `app`.' }),
    attributes: Attributes.optional(),
    trace_id: TraceId.nullable().optional(),
    span_id: SpanId.nullable().optional(),
    ...contextFields,
  })
  .strict()
  .openapi('IngestLog');

export const SpanItem = z
  .object({
    id: ItemId,
    trace_id: TraceId,
    span_id: SpanId,
    parent_span_id: SpanId.nullable().optional(),
    name: z.string().min(1).max(1024),
    operation: z
      .string()
      .max(200)
      .optional()
      .openapi({ description: 'e.g. http.server, db.query' }),
    kind: z.enum(SPAN_KINDS).optional(),
    started_at: Timestamp,
    duration_ms: z.number().finite().min(0).max(86_400_000),
    status: z.enum(['ok', 'error']).nullable().optional(),
    status_message: z.string().max(8192).optional(),
    attributes: Attributes.optional(),
    events: z
      .array(
        z.object({
          name: z.string().min(1).max(256),
          timestamp: Timestamp,
          attributes: Attributes.optional(),
        }),
      )
      .max(128)
      .optional(),
    ...contextFields,
  })
  .strict()
  .openapi('IngestTraceSpan');

export const ActionItem = z
  .object({
    id: ItemId,
    occurred_at: Timestamp,
    name: z.string().min(1).max(256),
    kind: z.enum(['page_view', 'screen_view', 'interaction']).default('interaction'),
    distinct_id: z.string().min(1).max(256),
    session_id: z.string().min(1).max(256).nullable().optional(),
    properties: Attributes.optional(),
    trace_id: TraceId.nullable().optional(),
    span_id: SpanId.nullable().optional(),
    ...contextFields,
  })
  .strict()
  .openapi('IngestAction');

export const MetricItem = z
  .object({
    id: ItemId,
    occurred_at: Timestamp,
    name: z.string().min(1).max(256),
    kind: z.enum(['counter', 'gauge', 'histogram']),
    value: z.number().finite(),
    unit: z.string().min(1).max(64).nullable().optional(),
    temporality: z.enum(['delta', 'cumulative']).nullable().optional(),
    attributes: Attributes.optional(),
    trace_id: TraceId.nullable().optional(),
    span_id: SpanId.nullable().optional(),
    ...contextFields,
  })
  .strict()
  .openapi('IngestMetric');

export const SdkInfo = z.object({
  name: z.string().min(1).max(100),
  version: z.string().min(1).max(50),
});

export type IssueItemInput = z.infer<typeof IssueItem>;
export type LogItemInput = z.infer<typeof LogItem>;
export type SpanItemInput = z.infer<typeof SpanItem>;
export type ActionItemInput = z.infer<typeof ActionItem>;
export type MetricItemInput = z.infer<typeof MetricItem>;
