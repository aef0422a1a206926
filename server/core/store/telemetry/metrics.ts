import type { MetricEvent } from '../../batch';
import type { TimeListQuery } from './time-list-query';

export interface MetricsStore {
  /** Matching samples, newest first (occurred_at DESC, id DESC), at most `limit`. */
  list(q: TimeListQuery): Promise<MetricRecord[]>;
  series(q: MetricSeriesQuery): Promise<MetricSeriesCells>;
  /**
   * Every metric name of one project with a sample in `[from, to)`, by name, at most `limit`:
   * each with the kind and unit of its newest sample in range. Read from the index on
   * (project_id, name, occurred_at), so a rare name among millions of samples is found.
   */
  names(q: MetricNamesQuery): Promise<MetricNameRecord[]>;
}

export type MetricNamesQuery = { projectId: string; from: number; to: number; limit: number };

export type MetricNameRecord = {
  name: string;
  kind: MetricEvent['metricKind'];
  unit: string | null;
  /** The newest sample's time in range (epoch ms). */
  lastSeenAt: number;
};

/** A stored metric sample: `id` is the service's row id, `eventId` the item id sent. */
export type MetricRecord = Omit<MetricEvent, 'kind' | 'attributesJson' | 'bytes' | 'id'> & {
  id: string;
  eventId: string;
  projectId: string;
};

export type MetricGroupBy = 'none' | 'service_name' | 'release' | 'environment';

/** `GET /api/telemetry/metrics/series`, validated; buckets are [from + i * step, …). */
export type MetricSeriesQuery = {
  projectId: string;
  name: string;
  from: number;
  to: number;
  stepMs: number;
  groupBy: MetricGroupBy;
  serviceName: string | null;
  release: string | null;
  environment: string | null;
};

/** Per group key and bucket index: sample count, sum, maximum. */
export type MetricSeriesCells = {
  /** The newest sample's kind, unit and temporality in range; null without samples. */
  kind: MetricEvent['metricKind'] | null;
  unit: string | null;
  temporality: MetricEvent['temporality'];
  cells: { key: string | null; bucket: number; samples: number; sum: number; max: number }[];
};
