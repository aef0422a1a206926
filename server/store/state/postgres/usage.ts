import type { PlanTier } from '../../../domain/plans';
import { planStatusOf } from '../../../domain/subscription';
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
import { readAccountUsage } from '../../postgres/account-usage';
import type { PgDb, Sql } from '../../postgres/pg-database';

const OWNED_PROJECTS = ownedProjectsSql('$1');

/** The owner of the project's organization pays for it (the first owner by account id). */
export function readBillingAccount(
  sql: Sql,
  projectId: string,
): Promise<{ accountId: string; tier: PlanTier } | null> {
  return sql.one<{ accountId: string; tier: PlanTier }>(
    `SELECT a.id AS "accountId", a.plan_tier AS tier FROM projects p
     JOIN memberships m ON m.organization_id = p.organization_id AND m.role = 'owner'
     JOIN accounts a ON a.id = m.account_id
     WHERE p.id = $1 ORDER BY a.id LIMIT 1`,
    [projectId],
  );
}

export function pgUsage(db: PgDb): UsageStore {
  return {
    billingAccountOf: (projectId) => readBillingAccount(db, projectId),
    accountUsage: (accountId, since) => readAccountUsage(db, accountId, since),
    async setPlan(accountId, s) {
      await db.run(
        `UPDATE accounts SET plan_tier = $1, plan_status = $2, billing_interval = $3,
           subscription_state = $4, subscription_period_start = $5, subscription_period_end = $6
         WHERE id = $7`,
        [
          s.tier,
          planStatusOf(s.state),
          s.billingInterval,
          s.state,
          s.periodStart,
          s.periodEnd,
          accountId,
        ],
      );
    },
    async planTierOf(accountId) {
      const row = await db.one<{ tier: PlanTier }>(
        'SELECT plan_tier AS tier FROM accounts WHERE id = $1',
        [accountId],
      );
      return row?.tier ?? null;
    },
    async subscriptionOf(accountId) {
      const r = await db.one<SubscriptionDbRow>(
        `SELECT ${SUBSCRIPTION_COLUMNS} FROM accounts WHERE id = $1`,
        [accountId],
      );
      return r ? toSubscription(r) : null;
    },
    async ownedProjects(accountId) {
      const rows = await db.rows<{ id: string }>(`${OWNED_PROJECTS} ORDER BY p.id`, [accountId]);
      return rows.map((r) => r.id);
    },
    async organizationPlan(organizationId) {
      const r = await db.one<OrganizationPlanDbRow>(organizationPlanSql('$1', '$1'), [
        organizationId,
      ]);
      return r ? toOrganizationPlan(r) : null;
    },
    async ownedOrganizationCount(accountId) {
      const r = await db.one<{ n: number }>(
        `SELECT COUNT(*) AS n FROM memberships WHERE account_id = $1 AND role = 'owner'`,
        [accountId],
      );
      return r?.n ?? 0;
    },
    dailyUsage(accountId, since): Promise<DailyUsageRow[]> {
      return db.rows<DailyUsageRow>(
        `SELECT u.project_id AS "projectId", u.day, u.stream, u.events, u.bytes
         FROM usage_counters u
         WHERE u.project_id IN (${OWNED_PROJECTS}) AND u.day >= $2
         ORDER BY u.day, u.project_id, u.stream`,
        [accountId, since],
      );
    },
    droppedEvents(accountId, since): Promise<DroppedEventsRow[]> {
      return db.rows<DroppedEventsRow>(
        `SELECT d.project_id AS "projectId", d.reason, SUM(d.events) AS events
         FROM sdk_dropped_counters d
         WHERE d.project_id IN (${OWNED_PROJECTS}) AND d.day >= $2
         GROUP BY d.project_id, d.reason
         ORDER BY d.project_id, d.reason`,
        [accountId, since],
      );
    },
  };
}
