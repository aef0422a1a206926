/**
 * A large log store built from a seeded one inside ClickHouse (benchmarks at 10M, where seeding
 * through ingest takes hours here): every seeded log (ids of 36 characters) again under a new
 * id, 1 ms later per copy, the value-hour, catalog and ledger views filling as on ingest. Two
 * layouts of the same rows:
 * - `copy`: one copy after another, each an insert over all 14 days, so every part spans the
 *   whole range (a newest page reads a granule of each);
 * - `hour`: all copies of one hour per insert, hour after hour, as a store ingested live over
 *   the 14 days receives them, so parts (and their merges) hold separate time ranges.
 */
import { raw, sql, type SqlFragment } from '../server/store/rows/sql';
import type { ChDb } from '../server/store/telemetry/clickhouse/clickhouse-db';
import { migrateClickHouse } from '../server/store/telemetry/clickhouse/clickhouse-migrations';

export type CopyLayout = 'copy' | 'hour';

const HOUR = 3_600_000;
/** The seed's logs, kept apart (ordered by time) while `hour` rewrites the logs table. */
const SEED = 'bench_log_seed';

/** Copy `k` of the rows `source` selects (copy 0: the seed's own id and time). */
const copyOf = (k: SqlFragment, source: SqlFragment) =>
  sql`SELECT * EXCEPT (k) REPLACE (if(k = 0, id, concat(id, '-copy', toString(k))) AS id,
      occurred_at + toIntervalMillisecond(k) AS occurred_at)
    FROM (SELECT *, ${k} AS k FROM (${source}))`;

/** Writes copies `from`..`copies - 1` of the seeded logs, one insert per copy. */
export async function copyLogs(
  db: ChDb,
  from: number,
  copies: number,
  onCopy: (done: number) => void,
): Promise<void> {
  for (let k = from; k < copies; k += 1) {
    // The seed's rows are chosen in a subquery: the outer REPLACE's `id` would shadow the
    // column in a WHERE beside it.
    await db.command(
      sql`INSERT INTO logs ${copyOf(sql`toUInt32(${k})`, sql`SELECT * FROM logs WHERE length(id) = 36`)}`,
    );
    onCopy(k + 1);
  }
}

/**
 * Rewrites the logs as `copies` copies of the seed inserted hour by hour in time order (each
 * insert: every copy of one hour's seeded logs). The tables the views fill from logs are
 * emptied first and refill as the hours go in. Run again after an interruption, it starts
 * over from the seed it kept aside; the hours written.
 */
export async function copyLogsByHour(
  db: ChDb,
  copies: number,
  onHour: (done: number, hours: number) => void = () => {},
): Promise<number> {
  // The ledger's views (migration 5) must exist before the logs' ledger rows are removed.
  await migrateClickHouse(db);
  const kept = await db.one<{ n: number }>(
    sql`SELECT toUInt32(count()) AS n FROM system.tables
      WHERE database = currentDatabase() AND name = ${SEED}`,
  );
  if (!kept?.n)
    await db.command(
      sql`CREATE TABLE ${raw(SEED)} ENGINE = MergeTree ORDER BY occurred_at
        AS SELECT * FROM logs WHERE length(id) = 36`,
    );
  for (const table of ['logs', 'log_value_hours', 'log_attribute_hours', 'log_coverage_hours'])
    await db.command(sql`TRUNCATE TABLE ${raw(table)}`);
  await db.command(
    sql`ALTER TABLE accepted_ids DELETE WHERE kind = 'log' SETTINGS mutations_sync = 2`,
  );
  const range = await db.one<{ first: number; last: number }>(
    sql`SELECT toUInt64(toUnixTimestamp(toStartOfHour(min(occurred_at)))) * 1000 AS first,
        toUInt64(toUnixTimestamp(max(occurred_at))) * 1000 AS last FROM ${raw(SEED)}`,
  );
  if (!range) return 0;
  const hours = Math.floor((Number(range.last) - Number(range.first)) / HOUR) + 1;
  for (let h = 0; h < hours; h += 1) {
    const start = Number(range.first) + h * HOUR;
    await db.command(
      sql`INSERT INTO logs ${copyOf(
        sql`arrayJoin(range(toUInt32(${copies})))`,
        sql`SELECT * FROM ${raw(SEED)}
          WHERE occurred_at >= fromUnixTimestamp64Milli(toInt64(${start}), 'UTC')
            AND occurred_at < fromUnixTimestamp64Milli(toInt64(${start + HOUR}), 'UTC')`,
      )}`,
    );
    onHour(h + 1, hours);
  }
  await db.command(sql`DROP TABLE ${raw(SEED)}`);
  return hours;
}
