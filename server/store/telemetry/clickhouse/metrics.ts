import type {
  MetricNamesQuery,
  MetricSeriesCells,
  MetricSeriesQuery,
  MetricsStore,
} from '../../../core/store/telemetry/metrics';
import {
  METRIC_GROUP_COLUMN,
  byName,
  toMetric,
  toMetricName,
  type MetricDbRow,
  type MetricNameDbRow,
  type NewestSampleRow,
  type SeriesCellRow,
} from '../../rows/metric-record';
import { and, raw, sql, type SqlFragment } from '../../rows/sql';
import { typed } from './ch-sql';
import type { ChDb } from './clickhouse-db';
import { time } from './ch-time';
import { timeListPage } from './time-list-page';

/** A sample as the reads return it (times as epoch milliseconds). */
const COLUMNS = raw(`id, event_id, project_id, toUnixTimestamp64Milli(occurred_at) AS occurred_ms,
  name, kind, value, unit, temporality, attributes, environment, release, service_name,
  trace_id, span_id, sdk_name, sdk_version`);

type SampleRow = Omit<MetricDbRow, 'occurred_at'> & { occurred_ms: number };

/** One metric of one project in `[from, to)` with the series' exact filters. */
function seriesConditions(q: MetricSeriesQuery): SqlFragment {
  const where = [
    sql`project_id = ${q.projectId}`,
    sql`name = ${q.name}`,
    sql`occurred_at >= ${time(q.from)}`,
    sql`occurred_at < ${time(q.to)}`,
  ];
  const exact: [string, string | null][] = [
    ['service_name', q.serviceName],
    ['release', q.release],
    ['environment', q.environment],
  ];
  for (const [column, value] of exact)
    if (value !== null) where.push(sql`${raw(column)} = ${value}`);
  return and(where);
}

/** The series' group key as text (one group, key null, without grouping). */
const groupKey = (q: MetricSeriesQuery): SqlFragment => {
  const column = METRIC_GROUP_COLUMN[q.groupBy];
  return raw(column === 'NULL' ? 'CAST(NULL AS Nullable(String))' : `toString(${column})`);
};

/**
 * Metric samples in ClickHouse, ordered by (project_id, name, occurred_at): a series and a
 * name's newest sample read one name's range along the primary key.
 */
export function clickhouseMetrics(db: ChDb): MetricsStore {
  return {
    async list(q) {
      const rows = await timeListPage<SampleRow>(db, 'metric_samples', COLUMNS, q);
      return rows.map((r) => toMetric({ ...r, occurred_at: r.occurred_ms }));
    },

    async series(q: MetricSeriesQuery): Promise<MetricSeriesCells> {
      const where = seriesConditions(q);
      const newest = await db.one<NewestSampleRow>(
        sql`SELECT kind, unit, temporality FROM metric_samples WHERE ${where}
          ORDER BY occurred_at DESC LIMIT 1`,
      );
      if (newest === null) return { kind: null, unit: null, temporality: null, cells: [] };
      // occurred_at >= from, so the integer division floors as the other stores' does.
      const cells = await db.rows<SeriesCellRow>(
        sql`SELECT ${groupKey(q)} AS key,
            toInt64(intDiv(toUnixTimestamp64Milli(occurred_at) - ${typed(q.from, 'Int64')}, ${typed(q.stepMs, 'Int64')})) AS bucket,
            toInt64(count()) AS samples, sum(value) AS sum, max(value) AS max
          FROM metric_samples WHERE ${where}
          GROUP BY key, bucket`,
      );
      return { ...newest, cells };
    },

    /**
     * Per name with a sample in range, its newest sample's kind and unit: one pass over the
     * project's range, grouped by name (the primary key's second column).
     */
    async names(q: MetricNamesQuery) {
      const rows = await db.rows<MetricNameDbRow>(
        // argMax skips a NULL argument; a tuple is never NULL, so a newest sample without a
        // unit answers null, as the other stores do.
        sql`SELECT name, newest.1 AS kind, newest.2 AS unit, last_ms AS occurred_at FROM (
          SELECT name, argMax(tuple(kind, unit), occurred_at) AS newest,
            toUnixTimestamp64Milli(max(occurred_at)) AS last_ms
          FROM metric_samples
          WHERE project_id = ${q.projectId} AND occurred_at >= ${time(q.from)} AND occurred_at < ${time(q.to)}
          GROUP BY name ORDER BY name LIMIT ${q.limit})`,
      );
      return rows.map(toMetricName).sort(byName);
    },
  };
}
