import type { Db } from '../../sqlite/database';
import {
  METRIC_COLUMNS,
  newestSampleStatement,
  seriesCellsStatement,
  toMetric,
  type MetricDbRow,
  type NewestSampleRow,
  type SeriesCellRow,
} from '../../rows/metric-record';
import { timeListPageStatement } from '../../rows/conditions';
import { sql } from '../../rows/sql';
import type {
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
  };
}
