import type { Stream } from '../../domain/usage';
import type { Db } from '../database';
import type { StoredItem } from './release-rollup';

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;

type Cell = {
  stream: Stream;
  bucket: number;
  release: string;
  environment: string;
  service_name: string;
  events: number;
  bytes: number;
};

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

  const cells = (items: readonly StoredItem[], size: number) => {
    const out = new Map<string, Cell>();
    for (const it of items) {
      const bucket = Math.floor(it.at / size);
      const key = [it.stream, bucket, it.service_name, it.release, it.environment].join('\u0000');
      const cell = out.get(key);
      if (cell) {
        cell.events += 1;
        cell.bytes += it.bytes;
      } else {
        out.set(key, {
          stream: it.stream,
          bucket,
          release: it.release,
          environment: it.environment,
          service_name: it.service_name,
          events: 1,
          bytes: it.bytes,
        });
      }
    }
    return out.values();
  };

  return function write(projectId: string, items: readonly StoredItem[]): void {
    for (const c of cells(items, MINUTE_MS)) minutes.run({ project_id: projectId, ...c });
    for (const c of cells(items, HOUR_MS)) hours.run({ project_id: projectId, ...c });
  };
}

export type VolumeRollup = ReturnType<typeof volumeRollup>;
