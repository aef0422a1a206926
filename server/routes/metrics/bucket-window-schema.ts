import { z } from '@hono/zod-openapi';
import { INTERVAL_NAMES } from '../../domain/read-rules/series-window';

/** The bucket window of a series or volume answer (both widen the range to whole intervals). */
export const bucketWindowFields = {
  interval: z.enum(INTERVAL_NAMES as [string, ...string[]]),
  bucket_seconds: z.number().int(),
  since: z.string().openapi({
    format: 'date-time',
    description: 'Start of the first bucket (`since` floored to the interval, UTC).',
  }),
  until: z.string().openapi({
    format: 'date-time',
    description: 'End of the last bucket (`until` ceiled to the interval, UTC).',
  }),
  buckets: z.array(z.string().openapi({ format: 'date-time' })).openapi({
    description: 'Start of each bucket, oldest first.',
  }),
};
