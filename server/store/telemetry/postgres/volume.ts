import { STREAMS, type Stream } from '../../../domain/usage';
import { volumeSource } from '../../rows/volume-source';
import type { VolumeQuery, VolumeStore } from '../../../core/store/telemetry/volume';
import type { PgContext } from '../../postgres/pg-context';

/**
 * Reads the volume rollups (see `volumeSource`). Ranges are at most 31 days and 500 buckets,
 * so a read touches at most a bounded number of rollup rows, never telemetry rows.
 */
export function pgVolume({ db }: PgContext): VolumeStore {
  return {
    async buckets(q: VolumeQuery) {
      if (q.projectIds.length === 0) return [];
      const { table, column, unit } = volumeSource(q);
      const params: unknown[] = [q.projectIds, q.from / unit, q.to / unit, q.stepMs / unit];
      const where = [
        'project_id = ANY($1::text[])',
        // Naming every stream lets the primary key (project, stream, bucket, …) seek each
        // stream's range instead of reading every bucket of the project.
        `stream IN (${STREAMS.map((s) => `'${s}'`).join(', ')})`,
        `${column} >= $2::bigint`,
        `${column} < $3::bigint`,
      ];
      const exact: [string, string | null][] = [
        ['service_name', q.serviceName],
        ['release', q.release],
        ['environment', q.environment],
      ];
      for (const [c, value] of exact) {
        if (value === null) continue;
        params.push(value);
        where.push(`${c} = $${params.length}`);
      }
      return db.rows<{ stream: Stream; bucket: number; events: number; bytes: number }>(
        `SELECT stream, (${column} - $2::bigint) / $4::bigint AS bucket,
           SUM(events) AS events, SUM(bytes) AS bytes
         FROM ${table} WHERE ${where.join(' AND ')}
         GROUP BY stream, bucket`,
        params,
      );
    },
  };
}
