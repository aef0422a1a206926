import { z } from '@hono/zod-openapi';
import { NextActionSchema, orNull } from '../../http/openapi-shared';

/** The spec's Action record, shared by the action list and the live feed's `native_action`. */
export const ActionSchema = z
  .object({
    id: z.string().openapi({ format: 'uuid' }),
    project_id: z.string().openapi({ format: 'uuid' }),
    name: z.string(),
    kind: z.enum(['page_view', 'screen_view', 'interaction']),
    distinct_id: z.string().openapi({ description: 'Opaque actor or session identifier.' }),
    session_id: z.string().nullable().openapi({ description: 'Opaque; `null` when missing.' }),
    occurred_at: z.string().openapi({ format: 'date-time' }),
    properties: z.record(z.string(), z.unknown()),
    environment: z.string(),
    release: z.string(),
    service_name: z.string(),
    trace_id: z.string().nullable(),
    span_id: z.string().optional().openapi({ description: 'Omitted when missing.' }),
    next_action: NextActionSchema,
  })
  .openapi('Action');

/** `next_cursor` of the logs, actions and metrics families: `cursor_time` + `cursor_id`. */
export const TimeIdCursorSchema = z
  .object({
    time: z.string().openapi({ format: 'date-time', description: 'Send as `cursor_time`.' }),
    id: z.string().openapi({ format: 'uuid', description: 'Send as `cursor_id`.' }),
  })
  .openapi('TimeIdCursor');

export const ActionPageSchema = z
  .object({ actions: z.array(ActionSchema), next_cursor: orNull(TimeIdCursorSchema) })
  .openapi('ActionPage');
