import type { Db } from '../../sqlite/database';
import type { StoredItem } from '../../rows/release-row-deltas';
import { HOUR_MS, MINUTE_MS, volumeCells } from '../../rows/volume-cells';

export { HOUR_MS, MINUTE_MS } from '../../rows/volume-cells';

/**
 * Keeps `volume_minutes` and `volume_hours` current: events and bytes per stream, bucket of
 * event time and release/environment/service, written in the ingest transaction with what it
 * stored, so the volume summary reads buckets, never telemetry rows.
 */
export function volumeRollup(db: Db) {
  const upsert = (table: 'volume_minutes' | 'volume_hours', column: 'minute' | 'hour') =>
    db.prepare(`INSERT INTO ${table} (project_id, stream, ${column}, service_name, release,
        environment, events, bytes)
      VALUES (@project_id, @stream, @bucket, @service_name, @release, @environment, @events, @bytes)
      ON CONFLICT (project_id, stream, ${column}, service_name, release, environment)
      DO UPDATE SET events = events + excluded.events, bytes = bytes + excluded.bytes`);
  const minutes = upsert('volume_minutes', 'minute');
  const hours = upsert('volume_hours', 'hour');

  return function write(projectId: string, items: readonly StoredItem[]): void {
    for (const c of volumeCells(items, MINUTE_MS)) minutes.run({ project_id: projectId, ...c });
    for (const c of volumeCells(items, HOUR_MS)) hours.run({ project_id: projectId, ...c });
  };
}

export type VolumeRollup = ReturnType<typeof volumeRollup>;
