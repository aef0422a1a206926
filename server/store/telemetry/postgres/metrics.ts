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
import { mergeNewestFirstPages } from '../../rows/newest-first';
import { sql } from '../../rows/sql';
import type {
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
  };
}
