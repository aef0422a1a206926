import { queryOptions } from '@tanstack/react-query';
import { api, call } from '../client';
import type { components } from '../schema.gen';
import { resolveReadRange } from './logs';

export type MetricSample = components['schemas']['MetricSample'];
export type MetricSeries = components['schemas']['MetricSeries'];
export type VolumeSummary = components['schemas']['VolumeSummary'];
export type MetricKind = MetricSample['kind'];
export type MetricGroupBy = MetricSeries['group_by'];
export type MetricInterval = 'auto' | MetricSeries['interval'];

/**
 * The range of a chart read as the URL holds it: `since` compact (`24h`) or RFC3339, `until`
 * RFC3339 or absent (now). Each read turns it into RFC3339 when it starts.
 */
export type ChartRange = { since: string; until?: string };

/** One metric name with a sample in range, with the kind and unit of its newest sample. */
export type MetricName = components['schemas']['MetricNames']['names'][number];

export type MetricNameList = {
  names: MetricName[];
  /** True when the project has more names in range than one read returns (1,000). */
  truncated: boolean;
};

/**
 * Every name of one project with a sample in range, from the service's name catalog (read
 * from an index over all samples, so a rare metric among millions of samples is listed).
 */
async function fetchMetricNames(params: {
  project_id: string;
  since: string;
}): Promise<MetricNameList> {
  const { since } = resolveReadRange(params.since, undefined, Date.now());
  const data = await call(
    api.GET('/api/telemetry/metrics/names', {
      params: { query: { project_id: params.project_id, since } },
    }),
  );
  return { names: data.names, truncated: data.truncated };
}

export type SeriesParams = ChartRange & {
  project_id: string;
  name: string;
  interval: MetricInterval;
  group_by: MetricGroupBy;
  series_limit: number;
};

export type VolumeParams = ChartRange & {
  /** One project; absent reads every project the account can read. */
  project_id?: string;
  interval: MetricInterval;
  /** Exact-match filters (one release row's telemetry); absent counts every value. */
  service_name?: string;
  release?: string;
  environment?: string;
};

export const metricQueries = {
  all: () => ['metrics'] as const,
  nameLists: () => [...metricQueries.all(), 'names'] as const,
  /** Every metric name of one project with a sample in range. */
  names: (params: { project_id: string; since: string }) =>
    queryOptions({
      queryKey: [...metricQueries.nameLists(), params] as const,
      queryFn: () => fetchMetricNames(params),
      staleTime: 60_000,
    }),
  seriesReads: () => [...metricQueries.all(), 'series'] as const,
  /** One metric of one project, aggregated per bucket (`422` for a refused window). */
  series: (params: SeriesParams) =>
    queryOptions({
      queryKey: [...metricQueries.seriesReads(), params] as const,
      queryFn: () => {
        const range = resolveReadRange(params.since, params.until, Date.now());
        return call(
          api.GET('/api/telemetry/metrics/series', {
            params: {
              query: {
                project_id: params.project_id,
                name: params.name,
                ...range,
                interval: params.interval,
                group_by: params.group_by,
                series_limit: String(params.series_limit),
              },
            },
          }),
        );
      },
    }),
  volumeReads: () => [...metricQueries.all(), 'volume'] as const,
  /** Events and bytes per stream and bucket, for one project or every readable one. */
  volume: (params: VolumeParams) =>
    queryOptions({
      queryKey: [...metricQueries.volumeReads(), params] as const,
      queryFn: () => {
        const now = Date.now();
        const range = resolveReadRange(params.since, params.until, now);
        // The service refuses an `until` in the future; without one it counts up to now.
        const until =
          range.until !== undefined && Date.parse(range.until) < now ? range.until : undefined;
        return call(
          api.GET('/api/telemetry/summary/volume', {
            params: {
              query: {
                ...(params.project_id ? { project_id: params.project_id } : {}),
                since: range.since,
                ...(until ? { until } : {}),
                interval: params.interval,
                ...(params.service_name !== undefined ? { service_name: params.service_name } : {}),
                ...(params.release !== undefined ? { release: params.release } : {}),
                ...(params.environment !== undefined ? { environment: params.environment } : {}),
              },
            },
          }),
        );
      },
    }),
};
