import type { VolumeQuery } from '../../core/store/telemetry/volume';
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
