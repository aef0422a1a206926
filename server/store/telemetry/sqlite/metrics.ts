import type { Db } from '../../sqlite/database';
import {
  METRIC_COLUMNS,
  METRIC_GROUP_COLUMN as GROUP_COLUMN,
  toMetric,
  type MetricDbRow as Row,
} from '../../rows/metric-record';
import type {
  MetricRecord,
  MetricSeriesCells,
  MetricSeriesQuery,
  MetricsStore,
} from '../../../core/store/telemetry/metrics';
import type { TimeListQuery } from '../../../core/store/telemetry/time-list-query';
import { mergeNewestFirst, timeListWhere } from './newest-first';

export function sqliteMetrics(db: Db): MetricsStore {
  return {
    async list(q: TimeListQuery) {
      return mergeNewestFirst(q.projectIds, q.limit, (projectId) => {
        const { where, args } = timeListWhere(q, [
          ['name', q.name],
          ['service_name', q.serviceName],
          ['release', q.release],
          ['environment', q.environment],
        ]);
        return db
          .prepare<(string | number)[], Row>(
            `SELECT ${METRIC_COLUMNS} FROM metric_samples WHERE ${['project_id = ?', ...where].join(' AND ')}
             ORDER BY occurred_at DESC, id DESC LIMIT ?`,
          )
          .all(projectId, ...args, q.limit);
      }).map(toMetric);
    },

    /**
     * One metric of one project over a bounded range (at most 31 days), aggregated per bucket
     * in SQL from the covering index `metric_samples_series` (the table is read only for the
     * newest sample's kind and unit).
     */
    async series(q: MetricSeriesQuery): Promise<MetricSeriesCells> {
      const where = ['project_id = ?', 'name = ?', 'occurred_at >= ?', 'occurred_at < ?'];
      const args: (string | number)[] = [q.projectId, q.name, q.from, q.to];
      const exact: [string, string | null][] = [
        ['service_name', q.serviceName],
        ['release', q.release],
        ['environment', q.environment],
      ];
      for (const [column, value] of exact) {
        if (value === null) continue;
        where.push(`${column} = ?`);
        args.push(value);
      }
      const newest = db
        .prepare<
          (string | number)[],
          {
            kind: MetricRecord['metricKind'];
            unit: string | null;
            temporality: MetricRecord['temporality'];
          }
        >(
          `SELECT kind, unit, temporality FROM metric_samples WHERE ${where.join(' AND ')}
           ORDER BY occurred_at DESC LIMIT 1`,
        )
        .get(...args);
      if (newest === undefined) return { kind: null, unit: null, temporality: null, cells: [] };
      const cells = db
        .prepare<
          (string | number)[],
          { key: string | null; bucket: number; samples: number; sum: number; max: number }
        >(
          `SELECT ${GROUP_COLUMN[q.groupBy]} AS key, CAST((occurred_at - ?) / ? AS INTEGER) AS bucket,
             COUNT(*) AS samples, SUM(value) AS sum, MAX(value) AS max
           FROM metric_samples WHERE ${where.join(' AND ')}
           GROUP BY key, bucket`,
        )
        .all(q.from, q.stepMs, ...args);
      return { ...newest, cells };
    },
  };
}
