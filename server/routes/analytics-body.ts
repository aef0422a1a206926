import { z } from '@hono/zod-openapi';
import { MAX_RANGE_DAYS } from '../domain/read-rules/series-window';
import type { AnalysisUnitColumn } from '../store/store';

export const UUID_RE =
  /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** What a funnel or path counts: sessions (`session_id`) or users (`distinct_id`). */
export const ANALYSIS_UNITS = ['session', 'identified_user'] as const;
export type AnalysisUnit = (typeof ANALYSIS_UNITS)[number];
export const UNIT_COLUMN: Record<AnalysisUnit, AnalysisUnitColumn> = {
  session: 'session_id',
  identified_user: 'distinct_id',
};

/** The one project and one range every analytics body starts with (shared analytics rules). */
export const analyticsRangeFields = {
  project_id: z
    .string()
    .regex(UUID_RE, 'must be a UUID')
    .openapi({ format: 'uuid', description: 'One project.' }),
  since: z.string().openapi({
    description: `\`<n>h\`, \`<n>d\` or RFC3339, inclusive. The range to \`until\` is at most ${MAX_RANGE_DAYS} days.`,
  }),
  until: z.string().optional().openapi({
    description: 'RFC3339, exclusive, later than `since`; default the request time.',
  }),
};

/** The resolved range and filters a paths or retention answer echoes in `query`. */
export const analyticsQueryEcho = {
  project_id: z.string().openapi({ format: 'uuid' }),
  since: z.string().openapi({ format: 'date-time' }),
  until: z.string().openapi({ format: 'date-time' }),
  service_name: z.string().nullable(),
  release: z.string().nullable(),
  environment: z.string().nullable(),
};
