import { STREAMS, type Stream } from '../../domain/usage';
import type { VolumeQuery } from '../../core/store/telemetry/volume';
import { exactConditions } from './conditions';
import { and, raw, sql, type SqlDialect, type SqlFragment } from './sql';
import { HOUR_MS, MINUTE_MS } from './volume-cells';

/**
 * The rollup a volume read uses: hours when the bucket size is whole hours (and `from` an
 * hour boundary), else minutes; `unit` is the milliseconds of one rollup row.
 */
export function volumeSource(q: Pick<VolumeQuery, 'from' | 'stepMs'>) {
  return q.stepMs % HOUR_MS === 0 && q.from % HOUR_MS === 0
    ? ({ table: 'volume_hours', column: 'hour', unit: HOUR_MS } as const)
    : ({ table: 'volume_minutes', column: 'minute', unit: MINUTE_MS } as const);
}

/**
 * Events and bytes per stream and bucket from the rollup `volumeSource` picks. Ranges are at
 * most 31 days and 500 buckets, so a read touches a bounded number of rollup rows, never
 * telemetry rows.
 */
export function volumeBucketsStatement(q: VolumeQuery, d: SqlDialect): SqlFragment {
  const { table, column, unit } = volumeSource(q);
  const from = d.typed(q.from / unit, 'bigint');
  const where = [
    d.anyOf('project_id', q.projectIds),
    // Naming every stream lets the primary key (project, stream, bucket, …) seek each
    // stream's range instead of reading every bucket of the project.
    raw(`stream IN (${STREAMS.map((s) => `'${s}'`).join(', ')})`),
    sql`${raw(column)} >= ${from}`,
    sql`${raw(column)} < ${d.typed(q.to / unit, 'bigint')}`,
    ...exactConditions([
      ['service_name', q.serviceName],
      ['release', q.release],
      ['environment', q.environment],
    ]),
  ];
  return sql`SELECT stream,
  ${d.quotient(sql`${raw(column)} - ${from}`, sql`${q.stepMs / unit}`)} AS bucket,
      SUM(events) AS events, SUM(bytes) AS bytes
    FROM ${raw(table)} WHERE ${and(where)}
    GROUP BY stream, bucket`;
}

export type VolumeBucketRow = { stream: Stream; bucket: number; events: number; bytes: number };
