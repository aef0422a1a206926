import type { PlanTier } from '../../../domain/plans';
import { planStatusOf, type Subscription } from '../../../domain/subscription';
import type { Db } from '../../sqlite/database';
import type { DailyUsageRow, DroppedEventsRow, UsageStore } from '../../../core/store/state/usage';
import {
  organizationPlanSql,
  ownedProjectsSql,
  toOrganizationPlan,
  type OrganizationPlanDbRow,
  SUBSCRIPTION_COLUMNS,
  toSubscription,
  type SubscriptionDbRow,
} from '../../rows/usage';
import { readAccountUsage } from '../../sqlite/account-usage';

const OWNED_PROJECTS = ownedProjectsSql('?');

/** The owner of the project's organization pays for it (the first owner by account id). */
export function readBillingAccount(db: Db, projectId: string) {
  return (
    db
      .prepare<[string], { accountId: string; tier: PlanTier }>(
        `SELECT a.id AS accountId, a.plan_tier AS tier FROM projects p
         JOIN memberships m ON m.organization_id = p.organization_id AND m.role = 'owner'
         JOIN accounts a ON a.id = m.account_id
         WHERE p.id = ? ORDER BY a.id LIMIT 1`,
      )
      .get(projectId) ?? null
  );
}

export function sqliteUsage(db: Db): UsageStore {
  return {
    async billingAccountOf(projectId) {
      return readBillingAccount(db, projectId);
    },
    async accountUsage(accountId, since) {
      return readAccountUsage(db, accountId, since);
    },
    async setPlan(accountId, s) {
      db.prepare(
        `UPDATE accounts SET plan_tier = ?, plan_status = ?, billing_interval = ?,
           subscription_state = ?, subscription_period_start = ?, subscription_period_end = ?
         WHERE id = ?`,
      ).run(
        s.tier,
        planStatusOf(s.state),
        s.billingInterval,
        s.state,
        s.periodStart,
        s.periodEnd,
        accountId,
      );
    },
    async planTierOf(accountId) {
      const row = db
        .prepare<[string], { tier: PlanTier }>(
          'SELECT plan_tier AS tier FROM accounts WHERE id = ?',
        )
        .get(accountId);
      return row?.tier ?? null;
    },
    async subscriptionOf(accountId): Promise<Subscription | null> {
      const r = db
        .prepare<[string], SubscriptionDbRow>(
          `SELECT ${SUBSCRIPTION_COLUMNS} FROM accounts WHERE id = ?`,
        )
        .get(accountId);
      return r ? toSubscription(r) : null;
    },
    async ownedProjects(accountId) {
      return db
        .prepare<[string], { id: string }>(`${OWNED_PROJECTS} ORDER BY p.id`)
        .all(accountId)
        .map((r) => r.id);
    },
    async organizationPlan(organizationId) {
      const r = db
        .prepare<[string, string], OrganizationPlanDbRow>(organizationPlanSql('?', '?'))
        .get(organizationId, organizationId);
      return r ? toOrganizationPlan(r) : null;
    },
    async ownedOrganizationCount(accountId) {
      const r = db
        .prepare<[string], { n: number }>(
          `SELECT COUNT(*) AS n FROM memberships WHERE account_id = ? AND role = 'owner'`,
        )
        .get(accountId);
      return r?.n ?? 0;
    },
    async dailyUsage(accountId, since): Promise<DailyUsageRow[]> {
      return db
        .prepare<[string, number], DailyUsageRow>(
          `SELECT u.project_id AS projectId, u.day, u.stream, u.events, u.bytes
           FROM usage_counters u
           WHERE u.project_id IN (${OWNED_PROJECTS}) AND u.day >= ?
           ORDER BY u.day, u.project_id, u.stream`,
        )
        .all(accountId, since);
    },
    async droppedEvents(accountId, since): Promise<DroppedEventsRow[]> {
      return db
        .prepare<[string, number], DroppedEventsRow>(
          `SELECT d.project_id AS projectId, d.reason, SUM(d.events) AS events
           FROM sdk_dropped_counters d
           WHERE d.project_id IN (${OWNED_PROJECTS}) AND d.day >= ?
           GROUP BY d.project_id, d.reason
           ORDER BY d.project_id, d.reason`,
        )
        .all(accountId, since);
    },
  };
}
