import { z } from '@hono/zod-openapi';
import { PLAN_TIERS } from '../../domain/plans';
import { QUOTA_GROUPS, QUOTA_STATES } from '../../domain/quota-state';
import { STREAMS } from '../../domain/usage';

/** Response schemas of account usage and usage history (spec: Account usage, Usage history). */

const time = (description: string) => z.string().openapi({ format: 'date-time', description });

export const ProjectUsageSchema = z
  .object({
    project_id: z.string().openapi({ format: 'uuid' }),
    events: z.number().int(),
    bytes: z.number().int(),
  })
  .openapi('ProjectUsage', { description: 'Match rows by `project_id`, not position.' });

export const StreamUsageSchema = z
  .object({ kind: z.enum(STREAMS), events: z.number().int(), bytes: z.number().int() })
  .openapi('StreamUsage');

export const UsageTotalsSchema = z
  .object({
    events: z.number().int().openapi({ description: 'Items of every stream in the period.' }),
    bytes: z.number().int().openapi({ description: 'Billed bytes of every stream in the period.' }),
    projects: z.number().int(),
  })
  .openapi('UsageTotals');

export const SdkDroppedEventsSchema = z
  .object({
    project_id: z.string().openapi({ format: 'uuid' }),
    reason: z.string(),
    events: z.number().int(),
  })
  .openapi('SdkDroppedEvents');

const QuotaStateEnum = z.enum(QUOTA_STATES);
const QuotaGroupOrNull = z.enum(QUOTA_GROUPS).nullable();

export const AccountUsageSchema = z
  .object({
    period_start: time('Start of the current usage period (a calendar month, UTC).'),
    period_end: time('End of the period, exclusive.'),
    reset_at: time('When the allowance resets; equals `period_end`.'),
    plan: z.object({
      tier: z.enum(PLAN_TIERS),
      status: z.enum(['free', 'trial', 'active', 'past_due', 'disabled']),
    }),
    limits: z.object({
      events: z
        .null()
        .openapi({ description: 'Compatibility field, always null (not unlimited).' }),
      bytes: z.null().openapi({ description: 'Compatibility field, always null (not unlimited).' }),
      projects: z
        .null()
        .openapi({ description: 'Compatibility field, always null (not unlimited).' }),
      retention_days: z.number().int().nullable(),
    }),
    usage: UsageTotalsSchema.openapi({
      description: '`projects` is the number of projects the account owns.',
    }),
    state: QuotaStateEnum,
    warning_threshold: z
      .number()
      .openapi({ description: 'Fraction of a limit where `warning` starts.' }),
    percent_used: z.number().int().openapi({
      description: 'Highest share of any limit in percent, rounded down (80 means 80%).',
    }),
    warning: z.boolean(),
    blocked: z.boolean(),
    limit: QuotaGroupOrNull,
    next: z.string(),
    next_action: z.object({
      code: z.enum([
        'continue_sending_telemetry',
        'reduce_usage_or_upgrade',
        'wait_until_reset_or_upgrade',
      ]),
      target: z.enum(['telemetry_ingest', 'pricing']),
      state: QuotaStateEnum,
      limit: QuotaGroupOrNull,
      reset_at: z.string().openapi({ format: 'date-time' }),
    }),
    by_project: z.array(ProjectUsageSchema),
    by_stream: z.array(StreamUsageSchema),
    sdk_dropped_events: z.array(SdkDroppedEventsSchema).optional().openapi({
      description:
        'Only with `response_version=2`: events SDKs dropped before delivery (not billed, not in `usage`, `by_project` or `by_stream`), one row per project and reason; `[]` when none.',
    }),
  })
  .openapi('AccountUsage');

export const UsageHistoryBucketSchema = z
  .object({
    period_start: time('Bucket start.'),
    period_end: time('Bucket end, exclusive.'),
    usage: UsageTotalsSchema.openapi({
      description: '`projects` counts projects with usage in this bucket; never sum it.',
    }),
    by_project: z.array(ProjectUsageSchema),
    by_stream: z.array(StreamUsageSchema),
  })
  .openapi('UsageHistoryBucket');
