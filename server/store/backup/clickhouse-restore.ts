import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { TelemetryConfig } from '../../core/config';
import { raw, sql } from '../rows/sql';
import { openClickHouse } from '../telemetry/clickhouse/clickhouse-db';
import {
  clickhouseMigrations,
  migrateClickHouse,
} from '../telemetry/clickhouse/clickhouse-migrations';
import { BackupError } from './backup-error';
import type { Manifest, ManifestTier } from './backup-manifest';

type EmbeddedClickHouse = Extract<TelemetryConfig, { engine: 'clickhouse' }>;

/** Restored by the migrations themselves (the rows of versions 1..n). */
const SCHEMA_TABLE = 'schema_migrations';
const TABLE = /^[A-Za-z_][A-Za-z0-9_]*$/;
const PART = /^[A-Za-z0-9_-]+$/;

/** The backup's ClickHouse tier, checked against this release; null when it has none. */
export function clickhouseTier(manifest: Manifest): ManifestTier | null {
  const tier = manifest.tiers.find((t) => t.engine === 'clickhouse') ?? null;
  if (!tier) return null;
  const version = tier.schema_version ?? 0;
  if (version > clickhouseMigrations.length)
    throw new BackupError(
      `The backup's ClickHouse telemetry is at schema version ${version}, newer than this release knows (${clickhouseMigrations.length}): it was taken by a newer Lookout (${manifest.service_version}). Nothing was restored.`,
      `Restore it with Lookout ${manifest.service_version} or newer.`,
    );
  return tier;
}

/**
 * Builds the backup's telemetry on the embedded engine in `folder` (a new folder, renamed into
 * place by the caller): the schema of the backup's level from the migrations, then each
 * table's parts put in its `detached/` folder and attached (ATTACH PART moves them in as
 * they are; materialized views do not see it, and the rollup tables get their own parts).
 * The service's start migrates further if the backup is older.
 */
export async function buildClickHouseFolder(
  from: string,
  tier: ManifestTier,
  telemetry: EmbeddedClickHouse,
  folder: string,
): Promise<number> {
  const db = await openClickHouse({ ...telemetry, url: null, embeddedPath: folder });
  let parts = 0;
  try {
    await migrateClickHouse(db, tier.schema_version ?? 0);
    const tables = new Map(
      (
        await db.rows<{ name: string; path: string }>(
          sql`SELECT name, data_paths[1] AS path FROM system.tables
            WHERE database = currentDatabase() AND engine LIKE '%MergeTree'`,
        )
      ).map((t) => [t.name, t.path]),
    );
    for (const table of tier.tables ?? []) {
      if (table === SCHEMA_TABLE) continue;
      if (!TABLE.test(table)) throw new Error(`not a table name: ${table}`);
      const dataPath = tables.get(table);
      if (!dataPath)
        throw new BackupError(
          `The backup is damaged: it has a ClickHouse table ${table} that schema version ${tier.schema_version ?? 0} does not. Nothing was restored.`,
          'Restore from another backup.',
        );
      const source = path.join(from, 'clickhouse', table);
      if (!fs.existsSync(source)) continue;
      for (const part of fs.readdirSync(source).sort()) {
        fs.cpSync(path.join(source, part), path.join(dataPath, 'detached', part), {
          recursive: true,
        });
        if (!PART.test(part)) throw new Error(`not a part name: ${part}`);
        await db.command(raw(`ALTER TABLE ${table} ATTACH PART '${part}'`));
        parts += 1;
      }
    }
  } finally {
    await db.close();
  }
  return parts;
}

/**
 * Marks the restored state file for the start-up check that removes the telemetry of
 * batches it never committed (see backup-store.ts).
 */
export function markSweepPending(stateFile: string): void {
  const db = new Database(stateFile, { fileMustExist: true });
  try {
    db.prepare('UPDATE ingest_ledger SET sweep_pending = 1 WHERE id = 1').run();
  } finally {
    db.close();
  }
}
