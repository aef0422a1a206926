import { volumeBucketsStatement, type VolumeBucketRow } from '../../rows/volume-source';
import type { SqlDialect, SqlRunner } from '../../rows/sql';
import type { VolumeStore } from '../../../core/store/telemetry/volume';

/** Reads the volume rollups (see `volumeBucketsStatement`). */
export function sqlVolume(db: SqlRunner, dialect: SqlDialect): VolumeStore {
  return {
    async buckets(q) {
      if (q.projectIds.length === 0) return [];
      return db.rows<VolumeBucketRow>(volumeBucketsStatement(q, dialect));
    },
  };
}
