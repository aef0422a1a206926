import type { StoredItem } from '../../rows/release-row-deltas';
import { HOUR_MS, MINUTE_MS, volumeCells } from '../../rows/volume-cells';
import { byKey } from './key-order';
import type { Sql } from '../../postgres/pg-database';

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
  sql: Sql,
  projectId: string,
  items: readonly StoredItem[],
): Promise<void> {
  if (items.length === 0) return;
  for (const { table, column, size } of TABLES) {
    const cells = volumeCells(items, size).sort(
      byKey((c) => [c.stream, c.bucket, c.service_name, c.release, c.environment]),
    );
    await sql.run(
      `INSERT INTO ${table} (project_id, stream, ${column}, service_name, release, environment,
         events, bytes)
       SELECT $1, * FROM unnest($2::text[], $3::bigint[], $4::text[], $5::text[], $6::text[],
         $7::bigint[], $8::bigint[])
       ON CONFLICT (project_id, stream, ${column}, service_name, release, environment)
       DO UPDATE SET events = ${table}.events + excluded.events,
         bytes = ${table}.bytes + excluded.bytes`,
      [
        projectId,
        cells.map((c) => c.stream),
        cells.map((c) => c.bucket),
        cells.map((c) => c.service_name),
        cells.map((c) => c.release),
        cells.map((c) => c.environment),
        cells.map((c) => c.events),
        cells.map((c) => c.bytes),
      ],
    );
  }
}
