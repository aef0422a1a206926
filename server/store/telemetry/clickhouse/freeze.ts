import path from 'node:path';
import { raw, sql } from '../../rows/sql';
import type { ChDb } from './clickhouse-db';

/**
 * A snapshot of the telemetry database on the embedded engine: every MergeTree table frozen
 * under one name (`ALTER TABLE … FREEZE WITH NAME`: hard links of its parts under the
 * engine folder's `shadow/<name>/store/<uuid prefix>/<uuid>/<part>/`, so it takes
 * milliseconds and the parts stay as they are while merges go on). The copy is read from
 * there; `shadow/<name>` is removed once copied.
 */
export type FrozenTelemetry = {
  name: string;
  /** The folder of the snapshot's hard links (absolute). */
  shadow: string;
  /** The database's schema level (clickhouse-migrations.ts). */
  schemaVersion: number;
  /** Each table and the folder of its frozen parts (may not exist: no part). */
  tables: { name: string; parts: string }[];
};

export const FREEZE_NAME = /^lookout_backup_[a-z0-9_]{1,64}$/;

export async function freezeTelemetry(
  db: ChDb,
  enginePath: string,
  name: string,
): Promise<FrozenTelemetry> {
  if (!db.embedded) throw new Error('only the embedded engine is frozen this way');
  if (!FREEZE_NAME.test(name)) throw new Error(`not a snapshot name: ${name}`);
  const tables = await db.rows<{ name: string; uuid: string }>(
    sql`SELECT name, toString(uuid) AS uuid FROM system.tables
      WHERE database = currentDatabase() AND engine LIKE '%MergeTree' ORDER BY name`,
  );
  for (const t of tables) await db.command(raw(`ALTER TABLE ${t.name} FREEZE WITH NAME '${name}'`));
  const version =
    (await db.one<{ v: number }>(sql`SELECT toUInt32(max(version)) AS v FROM schema_migrations`))
      ?.v ?? 0;
  const shadow = path.join(enginePath, 'shadow', name);
  return {
    name,
    shadow,
    schemaVersion: version,
    tables: tables.map((t) => ({
      name: t.name,
      parts: path.join(shadow, 'store', t.uuid.slice(0, 3), t.uuid),
    })),
  };
}
