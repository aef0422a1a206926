import type { StoredItem } from '../rows/release-row-deltas';
import { HOUR_MS, MINUTE_MS, volumeCells } from '../rows/volume-cells';
import { byKey } from './key-order';
import type { Sql } from './pg-database';
import { sql, raw } from '../rows/sql';

/** The two rollups: fixed table and column names, never built from values. */
const TABLES = [
  { table: 'volume_minutes', column: 'minute', size: MINUTE_MS },
  { table: 'volume_hours', column: 'hour', size: HOUR_MS },
] as const;

/**
 * Keeps `volume_minutes` and `volume_hours` current: events and bytes per stream, bucket of
 * event time and release/environment/service, written in the ingest transaction with what it
 * stored, one statement per table.
 */
export async function rollUpVolume(
  tx: Sql,
  projectId: string,
  items: readonly StoredItem[],
): Promise<void> {
  if (items.length === 0) return;
  for (const { table, column, size } of TABLES) {
    const cells = volumeCells(items, size).sort(
      byKey((c) => [c.stream, c.bucket, c.service_name, c.release, c.environment]),
    );
    await tx.run(sql`INSERT INTO ${raw(table)} (project_id, stream, ${raw(column)}, service_name,
    release, environment,
         events, bytes)
       SELECT ${projectId}, * FROM unnest(${cells.map((c) => c.stream)}::text[],
       ${cells.map((c) => c.bucket)}::bigint[], ${cells.map((c) => c.service_name)}::text[],
       ${cells.map((c) => c.release)}::text[], ${cells.map((c) => c.environment)}::text[],
         ${cells.map((c) => c.events)}::bigint[], ${cells.map((c) => c.bytes)}::bigint[])
       ON CONFLICT (project_id, stream, ${raw(column)}, service_name, release, environment)
       DO UPDATE SET events = ${raw(table)}.events + excluded.events,
         bytes = ${raw(table)}.bytes + excluded.bytes`);
  }
}
