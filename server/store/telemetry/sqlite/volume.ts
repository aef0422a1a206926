import { STREAMS, type Stream } from '../../../domain/usage';
import type { Db } from '../../sqlite/database';
import { volumeSource } from '../../rows/volume-source';
import type { VolumeQuery, VolumeStore } from '../../../core/store/telemetry/volume';

const marks = (n: number) => Array.from({ length: n }, () => '?').join(', ');

/**
 * Reads the volume rollups (see `volumeSource`). Ranges are at most 31 days and 500 buckets,
 * so a read touches at most a bounded number of rollup rows, never telemetry rows.
 */
export function sqliteVolume(db: Db): VolumeStore {
  return {
    async buckets(q: VolumeQuery) {
      if (q.projectIds.length === 0) return [];
      const { table, column, unit } = volumeSource(q);
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
