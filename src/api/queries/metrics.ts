import { queryOptions } from '@tanstack/react-query';
import { api, call } from '../client';
import type { components } from '../schema.gen';
import { resolveReadRange } from './logs';

export type MetricSample = components['schemas']['MetricSample'];
type MetricPage = components['schemas']['MetricPage'];
export type MetricSeries = components['schemas']['MetricSeries'];
export type VolumeSummary = components['schemas']['VolumeSummary'];
export type MetricKind = MetricSample['kind'];
export type MetricGroupBy = MetricSeries['group_by'];
export type MetricInterval = 'auto' | MetricSeries['interval'];

/** Samples per page when collecting metric names (the service's largest page). */
export const METRIC_NAME_PAGE_SIZE = 1000;
/** At most this many pages are read for the names: the newest 5,000 samples of the range. */
export const METRIC_NAME_MAX_PAGES = 5;

/**
 * The range of a chart read as the URL holds it: `since` compact (`24h`) or RFC3339, `until`
 * RFC3339 or absent (now). Each read turns it into RFC3339 when it starts.
 */
export type ChartRange = { since: string; until?: string };

/** One metric name seen in the samples read, with the kind and unit of its newest sample. */
export type MetricName = {
  name: string;
  kind: MetricKind;
  unit: string | null;
  /** Samples of it among those read (not a count of events or users). */
  samples: number;
};

export type MetricNameList = {
  names: MetricName[];
  /** How many samples were read to find them. */
  samplesRead: number;
  /** False when the range holds more samples than were read (older names may be missing). */
  complete: boolean;
};

/**
 * Distinct names (with kind and unit) among the samples of one project in range. There is no
 * route listing names, so this reads the sample list in cursor mode, newest first, following
 * `next_cursor` for at most `METRIC_NAME_MAX_PAGES` pages, and says how far it got.
 */
async function fetchMetricNames(params: {
  project_id: string;
  since: string;
}): Promise<MetricNameList> {
  const { since } = resolveReadRange(params.since, undefined, Date.now());
  const byName = new Map<string, MetricName>();
  let samplesRead = 0;
  let cursor: { time: string; id: string } | null = null;
  for (let page = 0; page < METRIC_NAME_MAX_PAGES; page++) {
    const data: MetricPage | MetricSample[] = await call(
      api.GET('/api/telemetry/metrics', {
        params: {
          query: {
            project_id: params.project_id,
            since,
            pagination: 'cursor',
            limit: String(METRIC_NAME_PAGE_SIZE),
            ...(cursor ? { cursor_time: cursor.time, cursor_id: cursor.id } : {}),
          },
        },
      }),
    );
    const rows = Array.isArray(data) ? data : data.metrics;
    const next: MetricPage['next_cursor'] = Array.isArray(data) ? null : data.next_cursor;
    samplesRead += rows.length;
    for (const sample of rows) {
      const seen = byName.get(sample.name);
      // Newest first: the first sample of a name gives its kind and unit.
      if (seen) seen.samples += 1;
      else
        byName.set(sample.name, {
          name: sample.name,
          kind: sample.kind,
          unit: sample.unit,
          samples: 1,
        });
    }
    if (!next) return { names: sortNames(byName), samplesRead, complete: true };
    cursor = next;
  }
  return { names: sortNames(byName), samplesRead, complete: false };
}

const sortNames = (byName: Map<string, MetricName>) =>
  [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

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
  /** Names seen among the newest samples of one project in range. */
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
