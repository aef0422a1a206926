import type { LimitName } from './usage';

/** Plan tiers (spec: Account usage `plan.tier`). */
export const PLAN_TIERS = ['free', 'pro', 'scale'] as const;
export type PlanTier = (typeof PLAN_TIERS)[number];

export type PlanQuota = Record<LimitName, number> & { retention_days: number };

const MB = 1024 * 1024;
const GB = 1024 * MB;

/**
 * Default allowances per usage period (a calendar month). The spec leaves the values to us;
 * they are configuration (`LOOKOUT_PLAN_QUOTAS`, JSON of the same shape, merged over these).
 */
export const defaultPlanQuotas: Record<PlanTier, PlanQuota> = {
  free: {
    issue_events: 5_000,
    trace_spans: 100_000,
    log_bytes: 100 * MB,
    metric_bytes: 20 * MB,
    retention_days: 14,
  },
  pro: {
    issue_events: 500_000,
    trace_spans: 10_000_000,
    log_bytes: 20 * GB,
    metric_bytes: 2 * GB,
    retention_days: 30,
  },
  scale: {
    issue_events: 5_000_000,
    trace_spans: 100_000_000,
    log_bytes: 200 * GB,
    metric_bytes: 20 * GB,
    retention_days: 90,
  },
};
