import { raw, sql } from '../../rows/sql';
import type { ChDb } from './clickhouse-db';
import { takeLogsOutOfRollups } from './log-rollup-undo';
import { time } from './ch-time';
import { deleteFrom } from './clickhouse-schema';

/** Tables whose rows carry their plan's `retention_days` when written. */
const ROW_TABLES = [
  'logs',
  'issue_occurrences',
  'spans',
  // A trace's part goes with the earliest of its batch's spans.
  'trace_parts',
  'actions',
  'metric_samples',
  'accepted_ids',
] as const;

/** Rollups by hour, kept as long as the longest plan keeps telemetry. */
const HOURLY_ROLLUPS = ['log_attribute_hours', 'log_coverage_hours', 'log_value_hours'] as const;
const LONGEST_RETENTION_DAYS = 90;
const DAY_MS = 86_400_000;

/** Each table's time column (the one the table is partitioned by). */
const TIME_COLUMN: Record<(typeof ROW_TABLES)[number], string> = {
  logs: 'occurred_at',
  issue_occurrences: 'occurred_at',
  spans: 'started_at',
  trace_parts: 'started_at',
  actions: 'occurred_at',
  metric_samples: 'occurred_at',
  accepted_ids: 'occurred_at',
};

/**
 * Retention (issue 26): an item is kept for its plan's `retention_days` (written on each row,
 * 14, 30 or 90) after the time it happened, then deleted, its id from the ledger with it (a
 * re-send after that stores it again, as new). It runs on the service's clock, not
 * ClickHouse's: a TTL clause would use the server's clock, and a store whose clock is not the
 * wall's (tests, a replay) would lose rows it still holds as current.
 *
 * Only rows received before `now` are expired, so a batch being written meanwhile is not cut
 * in two; the log catalog's counts of the expired logs are taken back first (negated, as a
 * removed batch's are), so the catalog and its coverage describe what is still stored. The
 * hourly rollups drop hours older than the longest retention.
 */
export async function expireTelemetry(db: ChDb, now: number): Promise<Record<string, number>> {
  if (!Number.isSafeInteger(now)) throw new Error(`not a time: ${String(now)}`);
  // Statements that select rows through the views' SELECT take text: `now` is an integer.
  const at = `fromUnixTimestamp64Milli(toInt64(${String(now)}), 'UTC')`;
  const expired = (table: (typeof ROW_TABLES)[number]) =>
    `${TIME_COLUMN[table]} < ${at} - toIntervalDay(retention_days)` +
    (table === 'accepted_ids' ? '' : ` AND received_at < ${at}`);
  const logsGone = `(SELECT * FROM logs WHERE ${expired('logs')})`;
  await takeLogsOutOfRollups(db, logsGone, `expire.${String(now)}`);
  const counts: Record<string, number> = {};
  for (const table of ROW_TABLES) {
    const n =
      (
        await db.one<{ n: number }>(
          raw(`SELECT toInt64(count()) AS n FROM ${table} WHERE ${expired(table)}`),
        )
      )?.n ?? 0;
    counts[table] = n;
    if (n > 0) await db.command(raw(`${deleteFrom(table, db.target)} WHERE ${expired(table)}`));
  }
  const oldest = now - LONGEST_RETENTION_DAYS * DAY_MS;
  for (const table of HOURLY_ROLLUPS)
    await db.command(sql`${raw(deleteFrom(table, db.target))} WHERE hour < ${time(oldest)}`);
  return counts;
}
