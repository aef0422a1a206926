import { z } from '@hono/zod-openapi';
import { ActionItem, ContextValue, IssueItem, LogItem, SdkInfo, SpanItem } from './item-schemas';

/**
 * The native envelope's schema on its own, so the hand check of the common envelope
 * (`quick-native-envelope.ts`) can name its output without importing the route bodies.
 */
export const ProjectField = z.string().optional().openapi({
  format: 'uuid',
  description: "Optional; when sent it must be the ingest key's project.",
});

export const nativeEnvelope = z
  .object({
    project_id: ProjectField,
    sdk: SdkInfo.optional().openapi({
      description: 'Who sent it; default `{name: "native", version: "1"}`.',
    }),
    release: ContextValue.optional().openapi({ description: 'Default release of every item.' }),
    environment: ContextValue.optional(),
    service_name: ContextValue.optional(),
    issues: z.array(IssueItem).optional(),
    logs: z.array(LogItem).optional(),
    trace_spans: z.array(SpanItem).optional(),
    actions: z.array(ActionItem).optional(),
  })
  .strict()
  .openapi('NativeEnvelope', {
    description:
      'Issues, logs, trace spans and actions (no metrics: send those to `/v1/events`). Every item has its own `id`, unique within the envelope; release, environment and service_name come from the item or from the envelope, and must not be blank.',
    example: {
      release: 'checkout@2.14.0',
      environment: 'production',
      service_name: 'checkout-api',
      logs: [
        {
          id: '0b7c7f0e-3c1d-4e55-9a8e-0d5f7c1e2a10',
          occurred_at: '2026-11-20T14:03:07.412Z',
          severity: 'warn',
          message: 'payment provider slow',
          attributes: { provider: 'stripe', latency_ms: 1840 },
        },
      ],
    },
  });

/** A native envelope as its schema outputs it. */
export type NativeEnvelopeOutput = z.output<typeof nativeEnvelope>;
