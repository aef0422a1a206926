import type { Db } from '../../sqlite/database';
import type { StoredItem } from '../../rows/release-row-deltas';
import { HOUR_MS, MINUTE_MS, volumeCells, type VolumeCell } from '../../rows/volume-cells';

export { HOUR_MS, MINUTE_MS } from '../../rows/volume-cells';

/**
 * Keeps `volume_minutes` and `volume_hours` current: events and bytes per stream, bucket of
 * event time and release/environment/service, written in the ingest transaction with what it
 * stored, so the volume summary reads buckets, never telemetry rows.
 */
export function volumeRollup(db: Db) {
  // Positional parameters: binding an object by name costs more than the upsert itself.
  const upsert = (table: 'volume_minutes' | 'volume_hours', column: 'minute' | 'hour') =>
    db.prepare<[string, string, number, string, string, string, number, number]>(
      `INSERT INTO ${table} (project_id, stream, ${column}, service_name, release,
        environment, events, bytes) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (project_id, stream, ${column}, service_name, release, environment)
      DO UPDATE SET events = events + excluded.events, bytes = bytes + excluded.bytes`,
    );
  const minutes = upsert('volume_minutes', 'minute');
  const hours = upsert('volume_hours', 'hour');
  const run = (statement: typeof minutes, projectId: string, c: VolumeCell) =>
    statement.run(
      projectId,
      c.stream,
      c.bucket,
      c.service_name,
      c.release,
      c.environment,
      c.events,
      c.bytes,
    );

  return function write(projectId: string, items: readonly StoredItem[]): void {
    for (const c of volumeCells(items, MINUTE_MS)) run(minutes, projectId, c);
    for (const c of volumeCells(items, HOUR_MS)) run(hours, projectId, c);
  };
}

export type VolumeRollup = ReturnType<typeof volumeRollup>;
