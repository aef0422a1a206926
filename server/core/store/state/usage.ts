import type { PlanTier } from '../../../domain/plans';
import type { Subscription } from '../../../domain/subscription';
import type { Stream, UsageByStream } from '../../../domain/usage';

export interface UsageStore {
  /** The account that owns the project's organization, and its plan. */
  billingAccountOf(projectId: string): Promise<{ accountId: string; tier: PlanTier } | null>;
  /** Usage by stream of every project the account owns, from `since` (a UTC day) on. */
  accountUsage(accountId: string, since: number): Promise<UsageByStream>;
  /** Stores the account's plan and subscription (tier, interval, state, period). */
  setPlan(accountId: string, subscription: Subscription): Promise<void>;
  /** The account's plan tier, or null for an unknown account. */
  planTierOf(accountId: string): Promise<PlanTier | null>;
  /** The account's plan and subscription, or null for an unknown account. */
  subscriptionOf(accountId: string): Promise<Subscription | null>;
  /** Ids of the projects in organizations the account owns (whose usage it pays), by id. */
  ownedProjects(accountId: string): Promise<string[]>;
  /** How many organizations the account owns. */
  ownedOrganizationCount(accountId: string): Promise<number>;
  /**
   * The plan an organization follows: its owner's subscription (the first owner by account id,
   * the account `billingAccountOf` charges), and how many projects it holds. Null without owner.
   */
  organizationPlan(
    organizationId: string,
  ): Promise<{ accountId: string; subscription: Subscription; projects: number } | null>;
  /** Counted usage of the owned projects per day and stream, from `since` (a UTC day) on. */
  dailyUsage(accountId: string, since: number): Promise<DailyUsageRow[]>;
  /** Events SDKs reported dropped for the owned projects, from `since` (a UTC day) on. */
  droppedEvents(accountId: string, since: number): Promise<DroppedEventsRow[]>;
}

/** Counted usage of one project, UTC day and stream (what `usage_counters` holds). */
export type DailyUsageRow = {
  projectId: string;
  day: number;
  stream: Stream;
  events: number;
  bytes: number;
};

/** Events an SDK reported as dropped, summed per project and reason. */
export type DroppedEventsRow = { projectId: string; reason: string; events: number };
