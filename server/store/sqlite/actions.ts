import type { Db } from '../database';
import type {
  ActionCoverageCounts,
  ActionFilteredRange,
  ActionListQuery,
  ActionOverviewCounts,
  ActionPropertyCount,
  ActionRangeQuery,
  ActionRecord,
  ActionSegmentCounts,
  ActionStepEvent,
  ActionsStore,
  AnalysisUnitColumn,
} from '../store';
import { mergeNewestFirst, timeListWhere } from './newest-first';

export type ActionDbRow = {
  id: string;
  project_id: string;
  occurred_at: number;
  name: string;
  kind: ActionRecord['actionKind'];
  distinct_id: string;
  session_id: string | null;
  properties: string;
  environment: string;
  release: string;
  service_name: string;
  trace_id: string | null;
  span_id: string | null;
  sdk_name: string;
  sdk_version: string;
};

export const toAction = (r: ActionDbRow): ActionRecord => ({
  id: r.id,
  projectId: r.project_id,
  occurredAt: r.occurred_at,
  name: r.name,
  actionKind: r.kind,
  distinctId: r.distinct_id,
  sessionId: r.session_id,
  properties: JSON.parse(r.properties) as Record<string, unknown>,
  environment: r.environment,
  release: r.release,
  service_name: r.service_name,
  traceId: r.trace_id,
  spanId: r.span_id,
  sdk: { name: r.sdk_name, version: r.sdk_version },
});

export function sqliteActions(db: Db): ActionsStore {
  return {
    async list(q: ActionListQuery) {
      return mergeNewestFirst(q.projectIds, q.limit, (projectId) => {
        const { where, args } = timeListWhere(q, [
          ['name', q.name],
          ['distinct_id', q.distinctId],
          ['service_name', q.serviceName],
          ['release', q.release],
          ['environment', q.environment],
        ]);
        return db
          .prepare<(string | number)[], ActionDbRow>(
            `SELECT id, project_id, occurred_at, name, kind, distinct_id, session_id, properties,
               environment, release, service_name, trace_id, span_id, sdk_name, sdk_version
             FROM actions WHERE ${['project_id = ?', ...where].join(' AND ')}
             ORDER BY occurred_at DESC, id DESC LIMIT ?`,
          )
          .all(projectId, ...args, q.limit);
      }).map(toAction);
    },

    async coverage(q) {
      const { where, args } = rangeWhere(q);
      const unit = unitColumn(q.unit);
      const row = db
        .prepare<(string | number)[], ActionCoverageCounts>(
          `SELECT COUNT(*) AS events,
             COALESCE(SUM(kind IN ('page_view', 'screen_view', 'interaction')), 0) AS classified,
             COALESCE(SUM(trim(name, ' ' || char(9, 10, 13)) <> ''), 0) AS named,
             COALESCE(SUM(${unit} IS NOT NULL), 0) AS unitIdentified,
             COUNT(DISTINCT ${unit}) AS units
           FROM actions WHERE ${where}`,
        )
        .get(...args);
      return row ?? { events: 0, classified: 0, named: 0, unitIdentified: 0, units: 0 };
    },

    async stepEvents(q) {
      if (q.names?.length === 0) return [];
      const { where, args } = rangeWhere(q);
      const unit = unitColumn(q.unit);
      const byName = q.names ? ` AND name IN (${q.names.map(() => '?').join(', ')})` : '';
      return db
        .prepare<(string | number)[], ActionStepEvent>(
          `SELECT ${unit} AS unit, kind, name, occurred_at AS at FROM actions
           WHERE ${where}${byName}
           ORDER BY occurred_at, seq`,
        )
        .all(...args, ...(q.names ?? []));
    },

    async segment(q) {
      const { where, args } = rangeWhere(q);
      const unit = unitColumn(q.unit);
      // The match is a filter of its own, so the totals read the (project_id, name, …) index.
      const byMatch = q.match ? ' AND name = ? AND kind = ?' : '';
      const matchArgs = q.match ? [q.match.name, q.match.kind] : [];
      const all = q.match
        ? (db
            .prepare<(string | number)[], { n: number }>(
              `SELECT COUNT(*) AS n FROM actions WHERE ${where}`,
            )
            .get(...args)?.n ?? 0)
        : null;
      const totals = db
        .prepare<(string | number)[], Omit<ActionSegmentCounts, 'all' | 'top'>>(
          `SELECT COUNT(*) AS events, COALESCE(SUM(${unit} IS NOT NULL), 0) AS unitIdentified,
             COUNT(DISTINCT ${unit}) AS units
           FROM actions WHERE ${where}${byMatch}`,
        )
        .get(...args, ...matchArgs) ?? { events: 0, unitIdentified: 0, units: 0 };
      const top =
        q.topLimit > 0
          ? db
              .prepare<(string | number)[], ActionSegmentCounts['top'][number]>(
                `SELECT name, kind, COUNT(*) AS events, COUNT(DISTINCT ${unit}) AS units
                 FROM actions WHERE ${where}${byMatch} GROUP BY name, kind
                 ORDER BY events DESC, name, kind LIMIT ?`,
              )
              .all(...args, ...matchArgs, q.topLimit)
          : [];
      return { all: all ?? totals.events, ...totals, top };
    },

    async overview(q) {
      const { where, args } = rangeWhere(q);
      const totals = db
        .prepare<(string | number)[], ActionOverviewCounts['totals']>(
          `SELECT COUNT(*) AS events,
             COALESCE(SUM(trim(name, ' ' || char(9, 10, 13)) <> ''), 0) AS named,
             COALESCE(SUM(session_id IS NOT NULL), 0) AS withSession,
             COUNT(DISTINCT distinct_id) AS users, COUNT(DISTINCT session_id) AS sessions
           FROM actions WHERE ${where}`,
        )
        .get(...args) ?? { events: 0, named: 0, withSession: 0, users: 0, sessions: 0 };
      const buckets = db
        .prepare<(string | number)[], { bucket: number; events: number }>(
          `SELECT CAST((occurred_at - ?) / ? AS INTEGER) AS bucket, COUNT(*) AS events
           FROM actions WHERE ${where} GROUP BY bucket ORDER BY bucket`,
        )
        .all(q.bucketFrom, q.stepMs, ...args);
      const top = db
        .prepare<(string | number)[], ActionOverviewCounts['top'][number]>(
          `SELECT name, kind, COUNT(*) AS events, COUNT(DISTINCT distinct_id) AS users,
             COUNT(DISTINCT session_id) AS sessions
           FROM actions WHERE ${where} GROUP BY name, kind
           ORDER BY events DESC, name, kind LIMIT ?`,
        )
        .all(...args, q.topLimit);
      const pairs = db
        .prepare<(string | number)[], { n: number }>(
          `SELECT COUNT(*) AS n FROM (SELECT 1 FROM actions WHERE ${where} GROUP BY name, kind)`,
        )
        .get(...args);
      return { totals, buckets, top, actionCount: pairs?.n ?? 0 };
    },

    async properties(q) {
      const { where, args } = rangeWhere(q, 'a.');
      const counts = db
        .prepare<(string | number)[], { events: number; withProperties: number }>(
          `SELECT COUNT(*) AS events, COALESCE(SUM(a.properties <> '{}'), 0) AS withProperties
           FROM actions a WHERE ${where}`,
        )
        .get(...args) ?? { events: 0, withProperties: 0 };
      const keys = db
        .prepare<(string | number)[], ActionPropertyCount>(
          `SELECT p.key AS key, p.type AS type, COUNT(*) AS events
           FROM actions a, json_each(a.properties) p WHERE ${where}
           GROUP BY p.key, p.type`,
        )
        .all(...args);
      return { ...counts, keys };
    },
  };
}

/** Only these two column names ever reach the SQL text. */
const unitColumn = (unit: AnalysisUnitColumn) =>
  unit === 'session_id' ? 'session_id' : 'distinct_id';

function rangeWhere(
  q: ActionRangeQuery & Partial<Pick<ActionFilteredRange, 'serviceName' | 'release'>>,
  alias = '',
): { where: string; args: (string | number)[] } {
  const where = [`${alias}project_id = ?`, `${alias}occurred_at >= ?`, `${alias}occurred_at < ?`];
  const args: (string | number)[] = [q.projectId, q.from, q.to];
  const exact: [string, string | null | undefined][] = [
    ['environment', q.environment],
    ['service_name', q.serviceName],
    ['release', q.release],
  ];
  for (const [column, value] of exact) {
    if (value === null || value === undefined) continue;
    where.push(`${alias}${column} = ?`);
    args.push(value);
  }
  return { where: where.join(' AND '), args };
}
