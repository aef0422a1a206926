import { STREAMS, type Stream } from '../../domain/usage';
import type { Db } from '../database';
import type { VolumeQuery, VolumeStore } from '../store';
import { HOUR_MS, MINUTE_MS } from './volume-rollup';

const marks = (n: number) => Array.from({ length: n }, () => '?').join(', ');

/**
 * Reads the volume rollups: hours when the bucket size is whole hours (and `from` an hour
 * boundary), else minutes. Ranges are at most 31 days and 500 buckets, so a read touches at
 * most a bounded number of rollup rows, never telemetry rows.
 */
export function sqliteVolume(db: Db): VolumeStore {
  return {
    async buckets(q: VolumeQuery) {
      if (q.projectIds.length === 0) return [];
      const hourly = q.stepMs % HOUR_MS === 0 && q.from % HOUR_MS === 0;
      const [table, column, unit] = hourly
        ? (['volume_hours', 'hour', HOUR_MS] as const)
        : (['volume_minutes', 'minute', MINUTE_MS] as const);
      const where = [
        `project_id IN (${marks(q.projectIds.length)})`,
        // Naming every stream lets the primary key (project, stream, bucket, …) seek each
        // stream's range instead of reading every bucket of the project.
        `stream IN (${STREAMS.map((s) => `'${s}'`).join(', ')})`,
        `${column} >= ?`,
        `${column} < ?`,
      ];
      const args: (string | number)[] = [...q.projectIds, q.from / unit, q.to / unit];
      const exact: [string, string | null][] = [
        ['service_name', q.serviceName],
        ['release', q.release],
        ['environment', q.environment],
      ];
      for (const [c, value] of exact) {
        if (value === null) continue;
        where.push(`${c} = ?`);
        args.push(value);
      }
      const perBucket = q.stepMs / unit;
      return db
        .prepare<
          (string | number)[],
          { stream: Stream; bucket: number; events: number; bytes: number }
        >(
          `SELECT stream, CAST((${column} - ?) / ? AS INTEGER) AS bucket,
             SUM(events) AS events, SUM(bytes) AS bytes
           FROM ${table} WHERE ${where.join(' AND ')}
           GROUP BY stream, bucket`,
        )
        .all(q.from / unit, perBucket, ...args);
    },
  };
}
