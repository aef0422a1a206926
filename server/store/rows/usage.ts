import type { PlanTier } from '../../domain/plans';
import type { BillingInterval, Subscription, SubscriptionState } from '../../domain/subscription';
import { emptyUsage, type Stream, type UsageByStream } from '../../domain/usage';
import { sql, type SqlFragment } from './sql';

/** Projects whose usage an account pays: those of organizations it owns. */
export const ownedProjects = (accountId: string): SqlFragment => sql`SELECT p.id FROM projects p
  JOIN memberships m ON m.organization_id = p.organization_id AND m.role = 'owner'
  WHERE m.account_id = ${accountId}`;

/**
 * The plan an organization follows: its first owner's subscription (by account id, as the
 * billing account) and its project count.
 */
export const organizationPlanStatement = (organizationId: string): SqlFragment =>
  sql`SELECT a.id AS account_id,
    a.plan_tier, a.billing_interval, a.subscription_state,
    a.subscription_period_start, a.subscription_period_end,
    (SELECT COUNT(*) FROM projects p WHERE p.organization_id = ${organizationId}) AS projects
  FROM memberships m JOIN accounts a ON a.id = m.account_id
  WHERE m.organization_id = ${organizationId} AND m.role = 'owner'
  ORDER BY a.id LIMIT 1`;

/**
 * Usage of every project in organizations the account owns, summed per stream (rows for
 * `toUsageByStream`). Read by both tiers: the usage reads, and ingestion's quota check inside
 * its transaction.
 */
export const accountUsageStatement = (accountId: string, since: number): SqlFragment =>
  sql`SELECT u.stream, SUM(u.events) AS events, SUM(u.bytes) AS bytes
    FROM usage_counters u
    JOIN projects p ON p.id = u.project_id
    JOIN memberships m ON m.organization_id = p.organization_id AND m.role = 'owner'
    WHERE m.account_id = ${accountId} AND u.day >= ${since}
    GROUP BY u.stream`;

export type OrganizationPlanDbRow = SubscriptionDbRow & { account_id: string; projects: number };

export type StreamUsageDbRow = { stream: Stream; events: number; bytes: number };

/** Per-stream sums into the usage of every stream (absent streams count zero). */
export function toUsageByStream(rows: readonly StreamUsageDbRow[]): UsageByStream {
  const usage = emptyUsage();
  for (const r of rows) usage[r.stream] = { events: r.events, bytes: r.bytes };
  return usage;
}

export type SubscriptionDbRow = {
  plan_tier: PlanTier;
  billing_interval: BillingInterval;
  subscription_state: SubscriptionState;
  subscription_period_start: number | null;
  subscription_period_end: number | null;
};

export const SUBSCRIPTION_COLUMNS = `plan_tier, billing_interval, subscription_state,
  subscription_period_start, subscription_period_end`;

export const toSubscription = (r: SubscriptionDbRow): Subscription => ({
  tier: r.plan_tier,
  billingInterval: r.billing_interval,
  state: r.subscription_state,
  periodStart: r.subscription_period_start,
  periodEnd: r.subscription_period_end,
});

export const toOrganizationPlan = (r: OrganizationPlanDbRow) => ({
  accountId: r.account_id,
  subscription: toSubscription(r),
  projects: Number(r.projects),
});
