import { z } from '@hono/zod-openapi';
import {
  ActionItem,
  ContextValue,
  IssueItem,
  LogItem,
  MetricItem,
  SdkInfo,
  SpanItem,
} from './item-schemas';
import { nativeEnvelope, ProjectField } from './native-envelope-schema';
import { quickNativeEnvelope } from './quick-native-envelope';

/**
 * Request bodies of the two ingest routes. Both may name `project_id`; when they do it must
 * be the ingest key's project. Limits: a body of at most 10 MiB and 5,000 items.
 */
export const MAX_ITEMS = 5_000;

/**
 * A route's body validator parses with `safeParseAsync`, which zod runs markedly slower than
 * `safeParse` on a large batch (about twice the time for 1,000 logs), though nothing in these
 * schemas is asynchronous. The ingest bodies answer it with the synchronous parse.
 */
function parsedSynchronously<T extends z.ZodType>(
  schema: T,
  /** The output of a body checked by hand (the common case), or null for the schema to check. */
  quick: (data: unknown) => z.output<T> | null = () => null,
): T {
  schema.safeParseAsync = (data, params) => {
    const output = quick(data);
    return Promise.resolve(
      output === null ? schema.safeParse(data, params) : { success: true as const, data: output },
    );
  };
  return schema;
}

export const NativeEnvelope = parsedSynchronously(nativeEnvelope, quickNativeEnvelope);

export const SDK_EVENT_TYPES = ['issue', 'log', 'trace_span', 'action', 'metric'] as const;
export type SdkEventType = (typeof SDK_EVENT_TYPES)[number];

export const SdkContext = z
  .object({
    release: ContextValue,
    environment: ContextValue,
    service_name: ContextValue.optional(),
  })
  .catchall(z.unknown())
  .openapi('SdkContext', {
    description:
      'Release and environment of the app; further keys (device, os, user agent) are kept as they are.',
  });

/** At most this many report rows per batch (one per reason). */
export const MAX_DROPPED_REPORTS = 50;

export const DroppedEventsReport = z
  .object({
    reason: z
      .string()
      .regex(/^[a-z][a-z0-9_]{0,63}$/, 'a lower-case token such as queue_overflow')
      .openapi({ example: 'queue_overflow' }),
    events: z.number().int().min(1).max(1_000_000_000),
  })
  .strict()
  .openapi('SdkDroppedEventsReport', {
    description:
      'Events the SDK dropped before delivery for one reason (for example `queue_overflow`, `rate_limit_backoff`, `network_error`, `before_send`, `sample_rate`). Counted once per batch that stores at least one new event; never billed.',
  });

export const SdkBatch = parsedSynchronously(
  z
    .object({
      project_id: ProjectField,
      sdk: SdkInfo,
      context: SdkContext,
      dropped_events: z.array(DroppedEventsReport).max(MAX_DROPPED_REPORTS).optional().openapi({
        description:
          'Optional report of events dropped by the SDK since its last delivered batch; shown in account usage version 2 as `sdk_dropped_events`.',
      }),
      // Chosen by `type`, so a bad event reports its own kind's problems (and only one kind's
      // schema runs per event).
      events: z.array(
        z.discriminatedUnion('type', [
          IssueItem.extend({ type: z.literal('issue') }),
          LogItem.extend({ type: z.literal('log') }),
          SpanItem.extend({ type: z.literal('trace_span') }),
          ActionItem.extend({ type: z.literal('action') }),
          MetricItem.extend({ type: z.literal('metric') }),
        ]),
      ),
    })
    .openapi('SdkBatch', {
      description:
        'Built by an SDK: events of all five kinds, each with a unique `id` and a `type`, beside the SDK name, version and context.',
      example: {
        sdk: { name: 'lookout.javascript', version: '2.3.0' },
        context: {
          release: 'web@1.4.2',
          environment: 'production',
          service_name: 'storefront-web',
        },
        events: [
          {
            id: '6f1d8a52-8f0e-4c1b-a2a4-6a3b0c9d1e21',
            type: 'metric',
            occurred_at: '2026-11-20T14:03:07.412Z',
            name: 'web.vitals.lcp',
            kind: 'gauge',
            value: 2310,
            unit: 'ms',
          },
        ],
      },
    }),
);

export const IngestCounts = {
  issues: z.number().int(),
  logs: z.number().int(),
  trace_spans: z.number().int(),
  actions: z.number().int(),
  already_accepted: z
    .number()
    .int()
    .openapi({ description: 'Items of this batch accepted earlier; not stored again.' }),
  next: z.string(),
  next_action: z.object({
    code: z.literal('review_ingested_telemetry'),
    target: z.literal('telemetry_reads'),
  }),
};

export const NativeIngestResult = z.object(IngestCounts).openapi('NativeIngestResult');
export const SdkIngestResult = z
  .object({
    ...IngestCounts,
    metrics: z.number().int(),
    context_updated: z
      .boolean()
      .openapi({ description: 'The batch brought a new release/environment/service.' }),
  })
  .openapi('SdkIngestResult');
