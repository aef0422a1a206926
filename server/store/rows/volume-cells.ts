import type { Stream } from '../../domain/usage';
import type { StoredItem } from './release-row-deltas';

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;

/** Events and bytes of one stream, bucket of event time and release/environment/service. */
export type VolumeCell = {
  stream: Stream;
  bucket: number;
  release: string;
  environment: string;
  service_name: string;
  events: number;
  bytes: number;
};

/** The stored items of a batch summed per cell of `size` milliseconds. */
export function volumeCells(items: readonly StoredItem[], size: number): VolumeCell[] {
  const out = new Map<string, VolumeCell>();
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
  return [...out.values()];
}
