import { z } from '@hono/zod-openapi';
import { NextActionSchema, orNull } from '../../http/openapi-shared';

export const TraceHealthSchema = z
  .object({
    status: z.enum(['unknown', 'no_errors_observed', 'errors_observed']).openapi({
      description: '`unknown` when the row has no traces.',
    }),
    trace_count: z.number().int().openapi({ description: 'Traces with a span in this row.' }),
    error_trace_count: z
      .number()
      .int()
      .openapi({ description: 'Of those, traces with a failed span in this row.' }),
    error_rate_basis_points: z.number().int().min(0).max(10000).openapi({
      description:
        'Share of traces with an error span, in basis points (not an error rate of all requests). Rounded to the nearest, but never 0 when a trace failed nor 10000 when one did not; 0 without traces.',
    }),
  })
  .openapi('TraceHealth');

/** The spec's Release summary: one project, release, environment and service. */
export const ReleaseRowSchema = z
  .object({
    project_id: z.string().openapi({ format: 'uuid' }),
    release: z.string(),
    environment: z.string(),
    service_name: z.string(),
    issue_count: z
      .number()
      .int()
      .openapi({ description: 'Distinct issue groups with an occurrence in this row.' }),
    log_count: z.number().int(),
    trace_span_count: z.number().int(),
    action_count: z.number().int(),
    metric_count: z.number().int().openapi({ description: 'Metric samples.' }),
    first_seen_at: z.string().openapi({
      format: 'date-time',
      description: 'Earliest event time in the row (`occurred_at`; a span’s start).',
    }),
    last_seen_at: z.string().openapi({ format: 'date-time', description: 'Latest event time.' }),
    trace_health: TraceHealthSchema,
    next_action: NextActionSchema,
  })
  .openapi('ReleaseRow');

const ReleaseCursorSchema = z
  .object({
    time: z.string().openapi({ format: 'date-time', description: 'Send as `cursor_time`.' }),
    project_id: z.string().openapi({ format: 'uuid', description: 'Send as `cursor_project_id`.' }),
    release: z.string().openapi({ description: 'Send as `cursor_release`.' }),
    environment: z.string().openapi({ description: 'Send as `cursor_environment`.' }),
    service_name: z.string().openapi({ description: 'Send as `cursor_service_name`.' }),
  })
  .openapi('ReleaseCursor');

export const ReleasePageSchema = z
  .object({ releases: z.array(ReleaseRowSchema), next_cursor: orNull(ReleaseCursorSchema) })
  .openapi('ReleasePage');
