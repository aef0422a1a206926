import {
  METRIC_COLUMNS,
  byName,
  metricNameWalk,
  newestSampleStatement,
  seriesCellsStatement,
  toMetric,
  toMetricName,
  type MetricDbRow,
  type MetricNameDbRow,
  type NewestSampleRow,
  type SeriesCellRow,
} from '../../rows/metric-record';
import { timeListPageStatement } from '../../rows/conditions';
import { mergeNewestFirstPages } from '../../rows/newest-first';
import { sql } from '../../rows/sql';
import type {
  MetricNamesQuery,
  MetricSeriesCells,
  MetricSeriesQuery,
  MetricsStore,
} from '../../../core/store/telemetry/metrics';
import type { TimeListQuery } from '../../../core/store/telemetry/time-list-query';
import type { PgContext } from '../../postgres/pg-context';
import { walkNewestFirst } from './ordered-walk';

export function pgMetrics({ db }: PgContext): MetricsStore {
  return {
    async list(q: TimeListQuery) {
      // Each project along its own (project_id, occurred_at, id) index, then merged.
      const pages = await Promise.all(
        q.projectIds.map((projectId) =>
          walkNewestFirst<MetricDbRow>(
            db,
            timeListPageStatement('metric_samples', METRIC_COLUMNS, projectId, q, [
              ['name', q.name],
              ['service_name', q.serviceName],
              ['release', q.release],
              ['environment', q.environment],
            ]),
          ),
        ),
      );
      return mergeNewestFirstPages(pages, q.limit).map(toMetric);
    },

    /**
     * One metric of one project over a bounded range (at most 31 days), aggregated per bucket
     * in SQL from the covering index `metric_samples_series` (the table is read only for the
     * newest sample's kind and unit).
     */
    async series(q: MetricSeriesQuery): Promise<MetricSeriesCells> {
      const [newest, cells] = await Promise.all([
        db.one<NewestSampleRow>(newestSampleStatement(q)),
        db.rows<SeriesCellRow>(
          seriesCellsStatement(q, sql`(occurred_at - ${q.from}) / ${q.stepMs}::bigint`),
        ),
      ]);
      if (newest === null) return { kind: null, unit: null, temporality: null, cells: [] };
      return { ...newest, cells };
    },

    /**
     * The name walk, then per name the newest sample in range (one seek along
     * `metric_samples_series` in the partitions of the range). Names without a sample in
     * range drop out. No ORDER BY: the walk yields names in order, and PostgreSQL evaluates a
     * recursive query only as far as the LIMIT needs.
     */
    async names(q: MetricNamesQuery) {
      const rows = await db.rows<MetricNameDbRow>(
        sql`WITH RECURSIVE ${metricNameWalk(q.projectId)}
        SELECT walk.name, s.kind, s.unit, s.occurred_at
        FROM walk CROSS JOIN LATERAL (
          SELECT m.kind, m.unit, m.occurred_at FROM metric_samples m
          WHERE m.project_id = ${q.projectId} AND m.name = walk.name
            AND m.occurred_at >= ${q.from} AND m.occurred_at < ${q.to}
          ORDER BY m.occurred_at DESC LIMIT 1
        ) s
        WHERE walk.name IS NOT NULL
        LIMIT ${q.limit}`,
      );
      return rows.map(toMetricName).sort(byName);
    },
  };
}
