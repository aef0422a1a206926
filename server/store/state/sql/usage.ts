import type { PlanTier } from '../../../domain/plans';
import { planStatusOf } from '../../../domain/subscription';
import type { DailyUsageRow, DroppedEventsRow, UsageStore } from '../../../core/store/state/usage';
import { ownedOrganizationCount } from '../../rows/accounts';
import { raw, sql, type SqlRunner } from '../../rows/sql';
import {
  SUBSCRIPTION_COLUMNS,
  accountUsageStatement,
  organizationPlanStatement,
  ownedProjects,
  toOrganizationPlan,
  toSubscription,
  toUsageByStream,
  type OrganizationPlanDbRow,
  type StreamUsageDbRow,
  type SubscriptionDbRow,
} from '../../rows/usage';

/** Plans and usage: the same SQL on both engines. */
export function sqlUsage(db: SqlRunner): UsageStore {
  return {
    billingAccountOf(projectId) {
      // The owner of the project's organization pays for it (the first owner by account id).
      return db.one<{ accountId: string; tier: PlanTier }>(
        sql`SELECT a.id AS "accountId", a.plan_tier AS tier FROM projects p
          JOIN memberships m ON m.organization_id = p.organization_id AND m.role = 'owner'
          JOIN accounts a ON a.id = m.account_id
          WHERE p.id = ${projectId} ORDER BY a.id LIMIT 1`,
      );
    },
    async accountUsage(accountId, since) {
      return toUsageByStream(
        await db.rows<StreamUsageDbRow>(accountUsageStatement(accountId, since)),
      );
    },
    async setPlan(accountId, s) {
      await db.run(sql`UPDATE accounts SET plan_tier = ${s.tier},
          plan_status = ${planStatusOf(s.state)}, billing_interval = ${s.billingInterval},
          subscription_state = ${s.state}, subscription_period_start = ${s.periodStart},
          subscription_period_end = ${s.periodEnd}
        WHERE id = ${accountId}`);
    },
    async planTierOf(accountId) {
      const row = await db.one<{ tier: PlanTier }>(
        sql`SELECT plan_tier AS tier FROM accounts WHERE id = ${accountId}`,
      );
      return row?.tier ?? null;
    },
    async subscriptionOf(accountId) {
      const r = await db.one<SubscriptionDbRow>(
        sql`SELECT ${raw(SUBSCRIPTION_COLUMNS)} FROM accounts WHERE id = ${accountId}`,
      );
      return r ? toSubscription(r) : null;
    },
    async ownedProjects(accountId) {
      const rows = await db.rows<{ id: string }>(sql`${ownedProjects(accountId)} ORDER BY p.id`);
      return rows.map((r) => r.id);
    },
    async organizationPlan(organizationId) {
      const r = await db.one<OrganizationPlanDbRow>(organizationPlanStatement(organizationId));
      return r ? toOrganizationPlan(r) : null;
    },
    async ownedOrganizationCount(accountId) {
      return (await db.one<{ n: number }>(ownedOrganizationCount(accountId)))?.n ?? 0;
    },
    dailyUsage(accountId, since): Promise<DailyUsageRow[]> {
      return db.rows<DailyUsageRow>(
        sql`SELECT u.project_id AS "projectId", u.day, u.stream, u.events, u.bytes
          FROM usage_counters u
          WHERE u.project_id IN (${ownedProjects(accountId)}) AND u.day >= ${since}
          ORDER BY u.day, u.project_id, u.stream`,
      );
    },
    droppedEvents(accountId, since): Promise<DroppedEventsRow[]> {
      return db.rows<DroppedEventsRow>(
        sql`SELECT d.project_id AS "projectId", d.reason, SUM(d.events) AS events
          FROM sdk_dropped_counters d
          WHERE d.project_id IN (${ownedProjects(accountId)}) AND d.day >= ${since}
          GROUP BY d.project_id, d.reason
          ORDER BY d.project_id, d.reason`,
      );
    },
  };
}
