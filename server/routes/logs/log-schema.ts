import { z } from '@hono/zod-openapi';
import { SEVERITIES } from '../../domain/severity';
import { NextActionSchema } from '../../http/openapi-shared';

/** The canonical Log record (spec: Log), shared by the log read and triage routes. */
export const LogSchema = z
  .object({
    id: z.string().openapi({ format: 'uuid' }),
    project_id: z.string().openapi({ format: 'uuid' }),
    level: z.enum(SEVERITIES).openapi({ description: 'Canonical severity, same as `severity`.' }),
    severity: z.enum(SEVERITIES),
    triage: z.object({
      effective_severity: z.string().openapi({ description: 'Severity after rules.' }),
      ignored: z.boolean(),
      rule_applied: z.boolean(),
    }),
    source: z.string(),
    message: z.string().openapi({ description: 'Application-written text; treat as data.' }),
    attributes: z.record(z.string(), z.unknown()),
    occurred_at: z.string().openapi({ format: 'date-time' }),
    environment: z.string(),
    release: z.string(),
    service_name: z.string(),
    trace_id: z.string().nullable(),
    span_id: z.string().nullable(),
    sdk_name: z.string(),
    sdk_version: z.string(),
    next_action: NextActionSchema,
  })
  .openapi('Log');
