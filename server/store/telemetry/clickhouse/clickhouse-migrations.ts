import { raw, sql } from '../../rows/sql';
import type { ChDb } from './clickhouse-db';
import {
  ACCEPTED_IDS,
  ACTIONS,
  CATALOG_VIEW,
  COVERAGE_VIEW,
  ISSUE_OCCURRENCES,
  LEDGER_VIEWS,
  LOGS,
  LOG_ATTRIBUTE_HOURS,
  LOG_COVERAGE_HOURS,
  LOG_VALUE_HOURS,
  METRIC_SAMPLES,
  SINGLE,
  SPANS,
  TRACE_PARTS,
  VALUE_VIEW,
  addColumns,
  createTable,
  rebuildTable,
  createView,
  type DdlTarget,
} from './clickhouse-schema';

/**
 * The telemetry schema's history in ClickHouse, like the state stores' migrations: never edit
 * a shipped migration, add one. Each is a list of statements (ClickHouse runs one per
 * request), each safe to run again (`IF NOT EXISTS`), so a migration cut short by a crash is
 * simply run again; `schema_migrations` records each one applied.
 */
export const clickhouseMigrations: readonly ((t: DdlTarget) => string[])[] = [
  /* 1: the five kinds, the id ledger, the log attribute catalog and value hours */ (t) => [
    ...createTable(LOGS, t),
    ...createTable(ISSUE_OCCURRENCES, t),
    ...createTable(SPANS, t),
    ...createTable(ACTIONS, t),
    ...createTable(METRIC_SAMPLES, t),
    ...createTable(ACCEPTED_IDS, t),
    ...createTable(LOG_ATTRIBUTE_HOURS, t),
    ...createTable(LOG_COVERAGE_HOURS, t),
    ...createTable(LOG_VALUE_HOURS, t),
    createView(CATALOG_VIEW, t),
    createView(COVERAGE_VIEW, t),
    createView(VALUE_VIEW, t),
  ],
  /*
   * 2: actions' order of arrival (paths order actions of the same instant by it, as the
   * state stores do by their `seq`); rows stored before it read 0.
   */
  (t) => addColumns(ACTIONS.name, ['seq UInt64'], t),
  /* 3: trace discovery's parts, one per trace and ingest batch */ (t) => [
    ...createTable(TRACE_PARTS, t),
  ],
  /*
   * 4: logs in granules of 1,024 rows, so an explorer page reads a few thousand rows rather
   * than tens of thousands. A store created since has them from 1 (the spec's settings): its
   * rebuild copies an empty table.
   */
  (t) => rebuildTable(LOGS, t),
  /*
   * 5: the id ledger filled by views from each kind's table (clickhouse-schema.ts,
   * LEDGER_VIEWS) instead of rows the service sends; the rows already in it stay as they are.
   */
  (t) => LEDGER_VIEWS.map((v) => createView(v, t)),
];

/** The whole schema as a cluster named `cluster` takes it (replicated, sharded). */
export const clusterDdl = (cluster: string): string[] =>
  clickhouseMigrations.flatMap((m) => m({ cluster }));

/**
 * Brings the database to the latest version (or `upTo`: a restore rebuilds the schema of the
 * backup's level before attaching its parts); the versions before and after.
 */
export async function migrateClickHouse(
  db: ChDb,
  upTo = clickhouseMigrations.length,
): Promise<{ from: number; to: number }> {
  await db.command(sql`CREATE TABLE IF NOT EXISTS schema_migrations (
    version UInt32, applied_at DateTime64(3, 'UTC') DEFAULT now64(3)
  ) ENGINE = MergeTree ORDER BY version`);
  const from =
    (await db.one<{ v: number }>(sql`SELECT toUInt32(max(version)) AS v FROM schema_migrations`))
      ?.v ?? 0;
  for (let v = from + 1; v <= upTo; v++) {
    const migration = clickhouseMigrations[v - 1];
    if (!migration) continue;
    for (const statement of migration(SINGLE)) await db.command(raw(statement));
    await db.command(sql`INSERT INTO schema_migrations (version) VALUES (${v})`);
  }
  return { from, to: Math.max(from, upTo) };
}
