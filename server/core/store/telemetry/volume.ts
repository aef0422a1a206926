import type { Stream } from '../../../domain/usage';

export interface VolumeStore {
  /** Events and bytes per stream and bucket index (buckets without events are absent). */
  buckets(
    q: VolumeQuery,
  ): Promise<{ stream: Stream; bucket: number; events: number; bytes: number }[]>;
}

/** `GET /api/telemetry/summary/volume`, validated; `from`/`to` are whole buckets of `stepMs`. */
export type VolumeQuery = {
  projectIds: string[];
  from: number;
  to: number;
  stepMs: number;
  serviceName: string | null;
  release: string | null;
  environment: string | null;
};
