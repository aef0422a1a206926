import { z } from '@hono/zod-openapi';
import { DEPLOYMENT_ID_MAX } from '../../domain/deployment-id';
import { parseRfc3339 } from '../../domain/read-rules/time-range';
import { isUuid } from '../../domain/read-rules/uuid';
import { ContextValue } from '../../ingest/item-schemas';
import { orNull } from '../../http/openapi-shared';

const Timestamp = z
  .string()
  .refine((v) => parseRfc3339(v) !== null, 'must be an RFC3339 timestamp')
  .openapi({ format: 'date-time' });

/** The spec's Deployment request fields; `commit_sha` is optional. */
export const DeploymentRequestSchema = z
  .object({
    project_id: z
      .string()
      .refine(isUuid, 'must be a UUID')
      .openapi({ format: 'uuid', description: 'The project the deployment belongs to.' }),
    release: ContextValue.openapi({
      description: 'As the SDK sends it (1 to 200 characters, not blank).',
    }),
    environment: ContextValue.openapi({ description: 'As the SDK sends it.' }),
    service_name: ContextValue.openapi({ description: 'As the SDK sends it.' }),
    status: z.enum(['succeeded', 'failed']),
    started_at: Timestamp,
    finished_at: Timestamp.openapi({ description: 'Not earlier than `started_at`.' }),
    commit_sha: z
      .string()
      .regex(/^[0-9a-fA-F]{7,64}$/, 'must be 7 to 64 hex characters')
      .optional()
      .openapi({ description: '7 to 64 hex characters; stored in lower case.' }),
  })
  .strict()
  .openapi('DeploymentRequest');

/** A stored deployment: the request fields (times in UTC) plus its id and when it was stored. */
export const DeploymentSchema = z
  .object({
    deployment_id: z.string().openapi({ description: 'Caller-chosen id (unique per project).' }),
    project_id: z.string().openapi({ format: 'uuid' }),
    release: z.string(),
    environment: z.string(),
    service_name: z.string(),
    status: z.enum(['succeeded', 'failed']),
    started_at: z.string().openapi({ format: 'date-time' }),
    finished_at: z.string().openapi({ format: 'date-time' }),
    commit_sha: z.string().nullable().openapi({ description: '`null` when not sent.' }),
    created_at: z
      .string()
      .openapi({ format: 'date-time', description: 'When the first PUT stored it.' }),
  })
  .openapi('Deployment');

const DeploymentCursorSchema = z
  .object({
    time: z.string().openapi({ format: 'date-time', description: 'Send as `cursor_time`.' }),
    project_id: z.string().openapi({ format: 'uuid', description: 'Send as `cursor_project_id`.' }),
    deployment_id: z.string().openapi({ description: 'Send as `cursor_deployment_id`.' }),
  })
  .openapi('DeploymentCursor');

export const DeploymentPageSchema = z
  .object({ deployments: z.array(DeploymentSchema), next_cursor: orNull(DeploymentCursorSchema) })
  .openapi('DeploymentPage');

export const DEPLOYMENT_ID_DESCRIPTION = `Caller-chosen: 1 to ${DEPLOYMENT_ID_MAX} ASCII letters, digits, \`.\`, \`_\`, \`~\`, \`-\`, starting with a letter or digit; case-sensitive, unique per project. Anything else is \`400 invalid_path\`.`;
