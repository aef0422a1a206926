import type { Db } from '../../sqlite/database';
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
import { sql } from '../../rows/sql';
import type {
  MetricNamesQuery,
  MetricSeriesCells,
  MetricSeriesQuery,
  MetricsStore,
} from '../../../core/store/telemetry/metrics';
import type { TimeListQuery } from '../../../core/store/telemetry/time-list-query';
import { allRows, firstRow } from '../../sqlite/sqlite-sql';
import { mergeNewestFirst } from './newest-first';

export function sqliteMetrics(db: Db): MetricsStore {
  return {
    async list(q: TimeListQuery) {
      return mergeNewestFirst(q.projectIds, q.limit, (projectId) =>
        allRows<MetricDbRow>(
          db,
          timeListPageStatement('metric_samples', METRIC_COLUMNS, projectId, q, [
            ['name', q.name],
            ['service_name', q.serviceName],
            ['release', q.release],
            ['environment', q.environment],
          ]),
        ),
      ).map(toMetric);
    },

    /**
     * One metric of one project over a bounded range (at most 31 days), aggregated per bucket
     * in SQL from the covering index `metric_samples_series` (the table is read only for the
     * newest sample's kind and unit).
     */
    async series(q: MetricSeriesQuery): Promise<MetricSeriesCells> {
      const newest = firstRow<NewestSampleRow>(db, newestSampleStatement(q));
      if (newest === undefined) return { kind: null, unit: null, temporality: null, cells: [] };
      const cells = allRows<SeriesCellRow>(
        db,
        seriesCellsStatement(q, sql`CAST((occurred_at - ${q.from}) / ${q.stepMs} AS INTEGER)`),
      );
      return { ...newest, cells };
    },

    /**
     * The name walk, then per name the newest sample in range: its `seq` from the covering
     * index (an exact seek), its kind and unit by rowid. Names without a sample in range drop
     * out. No ORDER BY: the walk yields names in order, and without a sort the walk stops
     * once `limit` names are found (bench/metric-names.ts).
     */
    async names(q: MetricNamesQuery) {
      const rows = allRows<MetricNameDbRow>(
        db,
        sql`WITH RECURSIVE ${metricNameWalk(q.projectId)},
        newest AS (
          SELECT walk.name AS name, (SELECT m.seq FROM metric_samples m
            WHERE m.project_id = ${q.projectId} AND m.name = walk.name
              AND m.occurred_at >= ${q.from} AND m.occurred_at < ${q.to}
            ORDER BY m.occurred_at DESC LIMIT 1) AS seq
          FROM walk WHERE walk.name IS NOT NULL
        )
        SELECT n.name, s.kind, s.unit, s.occurred_at
        FROM newest n CROSS JOIN metric_samples s ON s.seq = n.seq
        LIMIT ${q.limit}`,
      );
      return rows.map(toMetricName).sort(byName);
    },
  };
}
