import type { UsageByStream } from '../../domain/usage';
import { toUsageByStream, type StreamUsageDbRow } from '../rows/usage';
import type { Db } from './database';

/**
 * Usage of every project in organizations the account owns, summed per stream. Read by both
 * tiers: the usage reads, and ingestion's quota check inside its transaction.
 */
export function readAccountUsage(db: Db, accountId: string, since: number): UsageByStream {
  const rows = db
    .prepare<[string, number], StreamUsageDbRow>(
      `SELECT u.stream, SUM(u.events) AS events, SUM(u.bytes) AS bytes
       FROM usage_counters u
       JOIN projects p ON p.id = u.project_id
       JOIN memberships m ON m.organization_id = p.organization_id AND m.role = 'owner'
       WHERE m.account_id = ? AND u.day >= ?
       GROUP BY u.stream`,
    )
    .all(accountId, since);
  return toUsageByStream(rows);
}
