import type { PlanTier } from '../../domain/plans';
import { emptyUsage, type Stream, type UsageByStream } from '../../domain/usage';
import type { Db } from '../database';
import type { UsageStore } from '../store';

/** Usage of every project in organizations the account owns, summed per stream. */
export function readAccountUsage(db: Db, accountId: string, since: number): UsageByStream {
  const rows = db
    .prepare<[string, number], { stream: Stream; events: number; bytes: number }>(
      `SELECT u.stream, SUM(u.events) AS events, SUM(u.bytes) AS bytes
       FROM usage_counters u
       JOIN projects p ON p.id = u.project_id
       JOIN memberships m ON m.organization_id = p.organization_id AND m.role = 'owner'
       WHERE m.account_id = ? AND u.day >= ?
       GROUP BY u.stream`,
    )
    .all(accountId, since);
  const usage = emptyUsage();
  for (const r of rows) usage[r.stream] = { events: r.events, bytes: r.bytes };
  return usage;
}

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
    async setPlan(accountId, tier, status) {
      db.prepare('UPDATE accounts SET plan_tier = ?, plan_status = ? WHERE id = ?').run(
        tier,
        status,
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
  };
}
