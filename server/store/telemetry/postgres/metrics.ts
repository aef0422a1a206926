import {
  METRIC_COLUMNS,
  METRIC_GROUP_COLUMN,
  toMetric,
  type MetricDbRow,
} from '../../rows/metric-record';
import { mergeNewestFirstPages } from '../../rows/newest-first';
import type {
  MetricRecord,
  MetricSeriesCells,
  MetricSeriesQuery,
  MetricsStore,
} from '../../../core/store/telemetry/metrics';
import type { TimeListQuery } from '../../../core/store/telemetry/time-list-query';
import type { PgContext } from '../../postgres/pg-context';
import { walkNewestFirst } from './ordered-walk';
import { pgTimeListWhere } from './time-list-where';

export function pgMetrics({ db }: PgContext): MetricsStore {
  return {
    async list(q: TimeListQuery) {
      // Each project along its own (project_id, occurred_at, id) index, then merged.
      const pages = await Promise.all(
        q.projectIds.map((projectId) => {
          const params: unknown[] = [projectId];
          const where = pgTimeListWhere(
            q,
            [
              ['name', q.name],
              ['service_name', q.serviceName],
              ['release', q.release],
              ['environment', q.environment],
            ],
            params,
          );
          params.push(q.limit);
          return walkNewestFirst<MetricDbRow>(
            db,
            `SELECT ${METRIC_COLUMNS} FROM metric_samples
             WHERE ${['project_id = $1', ...where].join(' AND ')}
             ORDER BY occurred_at DESC, id DESC LIMIT $${params.length}`,
            params,
          );
        }),
      );
      return mergeNewestFirstPages(pages, q.limit).map(toMetric);
    },

    /**
     * One metric of one project over a bounded range (at most 31 days), aggregated per bucket
     * in SQL from the covering index `metric_samples_series` (the table is read only for the
     * newest sample's kind and unit).
     */
    async series(q: MetricSeriesQuery): Promise<MetricSeriesCells> {
      const params: unknown[] = [q.projectId, q.name, q.from, q.to];
      const where = ['project_id = $1', 'name = $2', 'occurred_at >= $3', 'occurred_at < $4'];
      const exact: [string, string | null][] = [
        ['service_name', q.serviceName],
        ['release', q.release],
        ['environment', q.environment],
      ];
      for (const [column, value] of exact) {
        if (value === null) continue;
        params.push(value);
        where.push(`${column} = $${params.length}`);
      }
      const [newest, cells] = await Promise.all([
        db.one<{
          kind: MetricRecord['metricKind'];
          unit: string | null;
          temporality: MetricRecord['temporality'];
        }>(
          `SELECT kind, unit, temporality FROM metric_samples WHERE ${where.join(' AND ')}
           ORDER BY occurred_at DESC LIMIT 1`,
          params,
        ),
        db.rows<{ key: string | null; bucket: number; samples: number; sum: number; max: number }>(
          // occurred_at >= from, so integer division floors as SQLite's CAST does.
          `SELECT CAST(${METRIC_GROUP_COLUMN[q.groupBy]} AS TEXT) AS key,
             (occurred_at - $3) / $${params.length + 1}::bigint AS bucket,
             COUNT(*) AS samples, SUM(value) AS sum, MAX(value) AS max
           FROM metric_samples WHERE ${where.join(' AND ')}
           GROUP BY 1, 2`,
          [...params, q.stepMs],
        ),
      ]);
      if (newest === null) return { kind: null, unit: null, temporality: null, cells: [] };
      return { ...newest, cells };
    },
  };
}
