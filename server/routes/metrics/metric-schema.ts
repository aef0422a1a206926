import { z } from '@hono/zod-openapi';
import { orNull } from '../../http/openapi-shared';
import { TimeIdCursorSchema } from '../actions/action-schema';

/** The spec's Metric sample: one sample per item (not an event or user count). */
export const MetricSampleSchema = z
  .object({
    id: z.string().openapi({ format: 'uuid', description: 'The stored sample’s id.' }),
    event_id: z.string().openapi({ format: 'uuid', description: 'The item id it was sent with.' }),
    project_id: z.string().openapi({ format: 'uuid' }),
    name: z.string(),
    kind: z.enum(['counter', 'gauge', 'histogram']),
    value: z.number(),
    unit: z.string().nullable(),
    temporality: z.enum(['delta', 'cumulative']).nullable(),
    attributes: z.record(z.string(), z.unknown()),
    occurred_at: z.string().openapi({ format: 'date-time' }),
    environment: z.string(),
    release: z.string(),
    trace_id: z.string().nullable(),
    span_id: z.string().nullable(),
    service_name: z.string(),
    sdk_name: z.string(),
    sdk_version: z.string(),
  })
  .openapi('MetricSample');

export const MetricPageSchema = z
  .object({ metrics: z.array(MetricSampleSchema), next_cursor: orNull(TimeIdCursorSchema) })
  .openapi('MetricPage');
