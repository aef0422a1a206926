import type {
  MetricGroupBy,
  MetricNameRecord,
  MetricRecord,
  MetricSeriesQuery,
} from '../../core/store/telemetry/metrics';
import { exactConditions } from './conditions';
import { and, raw, sql, type SqlFragment } from './sql';

export type MetricDbRow = {
  id: string;
  event_id: string;
  project_id: string;
  occurred_at: number;
  name: string;
  kind: MetricRecord['metricKind'];
  value: number;
  unit: string | null;
  temporality: MetricRecord['temporality'];
  attributes: string;
  environment: string;
  release: string;
  service_name: string;
  trace_id: string | null;
  span_id: string | null;
  sdk_name: string;
  sdk_version: string;
};

export const METRIC_COLUMNS = `id, event_id, project_id, occurred_at, name, kind, value, unit,
  temporality, attributes, environment, release, service_name, trace_id, span_id, sdk_name,
  sdk_version`;

export const toMetric = (r: MetricDbRow): MetricRecord => ({
  id: r.id,
  eventId: r.event_id,
  projectId: r.project_id,
  occurredAt: r.occurred_at,
  name: r.name,
  metricKind: r.kind,
  value: r.value,
  unit: r.unit,
  temporality: r.temporality,
  attributes: JSON.parse(r.attributes) as Record<string, unknown>,
  environment: r.environment,
  release: r.release,
  service_name: r.service_name,
  traceId: r.trace_id,
  spanId: r.span_id,
  sdk: { name: r.sdk_name, version: r.sdk_version },
});

/** The column a series groups by (`none`: one group, key null). */
export const METRIC_GROUP_COLUMN: Record<MetricGroupBy, string> = {
  none: 'NULL',
  service_name: 'service_name',
  release: 'release',
  environment: 'environment',
};

/** The series' conditions: one metric of one project in `[from, to)` and its exact filters. */
const seriesConditions = (q: MetricSeriesQuery): SqlFragment[] => [
  sql`project_id = ${q.projectId}`,
  sql`name = ${q.name}`,
  sql`occurred_at >= ${q.from}`,
  sql`occurred_at < ${q.to}`,
  ...exactConditions([
    ['service_name', q.serviceName],
    ['release', q.release],
    ['environment', q.environment],
  ]),
];

/** The newest sample's kind, unit and temporality in the series' range. */
export const newestSampleStatement = (q: MetricSeriesQuery): SqlFragment =>
  sql`SELECT kind, unit, temporality FROM metric_samples WHERE ${and(seriesConditions(q))}
    ORDER BY occurred_at DESC LIMIT 1`;

/**
 * Sample count, sum and maximum per group key and bucket. `bucket` is each engine's integer
 * division of `occurred_at - from` by the step (occurred_at >= from, so both floor alike).
 */
export const seriesCellsStatement = (q: MetricSeriesQuery, bucket: SqlFragment): SqlFragment =>
  sql`SELECT CAST(${raw(METRIC_GROUP_COLUMN[q.groupBy])} AS TEXT) AS key, ${bucket} AS bucket,
      COUNT(*) AS samples, SUM(value) AS sum, MAX(value) AS max
    FROM metric_samples WHERE ${and(seriesConditions(q))}
    GROUP BY 1, 2`;

export type SeriesCellRow = {
  key: string | null;
  bucket: number;
  samples: number;
  sum: number;
  max: number;
};
export type NewestSampleRow = {
  kind: MetricRecord['metricKind'];
  unit: string | null;
  temporality: MetricRecord['temporality'];
};

/**
 * The distinct metric names of one project, in name order, as a recursive walk along the
 * index on (project_id, name, …): one index seek per name instead of a scan of every sample
 * (a loose index scan; neither engine does it by itself). Yields a final `NULL` row.
 */
export const metricNameWalk = (projectId: string): SqlFragment =>
  sql`walk(name) AS (
    SELECT (SELECT name FROM metric_samples WHERE project_id = ${projectId} ORDER BY name LIMIT 1)
    UNION ALL
    SELECT (SELECT m.name FROM metric_samples m
      WHERE m.project_id = ${projectId} AND m.name > walk.name ORDER BY m.name LIMIT 1)
    FROM walk WHERE walk.name IS NOT NULL
  )`;

export type MetricNameDbRow = {
  name: string;
  kind: MetricRecord['metricKind'];
  unit: string | null;
  occurred_at: number | string;
};

export const toMetricName = (r: MetricNameDbRow): MetricNameRecord => ({
  name: r.name,
  kind: r.kind,
  unit: r.unit,
  lastSeenAt: Number(r.occurred_at),
});

/** The answer's name order (the engines walk names in byte order; this keeps the answer sorted). */
export const byName = (a: MetricNameRecord, b: MetricNameRecord): number =>
  a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
