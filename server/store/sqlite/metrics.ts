import type { Db } from '../database';
import type {
  MetricRecord,
  MetricSeriesCells,
  MetricSeriesQuery,
  MetricsStore,
  TimeListQuery,
} from '../store';
import { mergeNewestFirst, timeListWhere } from './newest-first';

type Row = {
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

const toMetric = (r: Row): MetricRecord => ({
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

const GROUP_COLUMN = {
  none: 'NULL',
  service_name: 'service_name',
  release: 'release',
  environment: 'environment',
} as const;

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
            `SELECT id, event_id, project_id, occurred_at, name, kind, value, unit, temporality,
               attributes, environment, release, service_name, trace_id, span_id, sdk_name, sdk_version
             FROM metric_samples WHERE ${['project_id = ?', ...where].join(' AND ')}
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
