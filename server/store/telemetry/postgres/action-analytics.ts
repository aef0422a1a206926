import { stepMasks } from '../../../domain/funnel';
import { unitPath } from '../../../domain/paths';
import {
  BLANK,
  checkPeriods,
  exactFilters,
  lifecycleResult,
  pathTally,
  propertyTally,
  reachedStepsInAnyOrder,
  retentionResult,
  sqliteJsonType,
  unitColumn,
  type LifecycleDbRow,
  type RetentionDbRow,
} from '../../rows/action-analytics';
import {
  segmentsOneByOne,
  type ActionFilteredRange,
  type ActionAnalyticsReads,
} from '../../../core/store/telemetry/actions';
import type { Sql } from '../../postgres/pg-database';
import { and, join, raw, sql, type SqlFragment } from '../../rows/sql';

/**
 * Product analytics reads on PostgreSQL. Each read is one statement (one snapshot, however
 * many scans it makes): counting per unit is a GROUP BY on the unit, distinct units per
 * action a GROUP BY (action, unit) first, and what the domain functions decide (a funnel's
 * ordered steps, a path) gets only the rows it needs, aggregated per unit in SQL: step events
 * for funnels, the start and the `depth` actions after it for paths (window functions).
 * Strings inside JSON results come in arrays, never as object fields: `Sql` unescapes the
 * strings of array columns (U+0000 is stored escaped, see pg-text.ts), not object values.
 */
type AnalyticsReads = ActionAnalyticsReads;

/** The range and exact filters of an analytics read. */
const rangeWhere = (q: ActionFilteredRange): SqlFragment =>
  and([
    sql`project_id = ${q.projectId}`,
    sql`occurred_at >= ${q.from}`,
    sql`occurred_at < ${q.to}`,
    ...exactFilters(q).map(([column, value]) => sql`${raw(column)} = ${value}`),
  ]);

/** `TRUE` for any action, else a match on kind and name. */
const matchSql = (m: { kind: string; eventName: string } | null): SqlFragment =>
  m === null ? raw('TRUE') : sql`(kind = ${m.kind} AND name = ${m.eventName})`;

/**
 * The period (or bucket) of `occurred_at` from `from` in steps of `stepMs`, truncated toward
 * zero as SQLite's CAST does; in double precision, so a fractional step divides as it does
 * in SQLite and in the domain functions.
 */
const periodSql = (from: number, stepMs: number): SqlFragment =>
  sql`trunc((occurred_at - ${from})::float8 / ${stepMs}::float8)`;

const CLASSIFIED = `kind IN ('page_view', 'screen_view', 'interaction')`;
const named = (): SqlFragment => sql`btrim(name, ${BLANK}) <> ''`;

/**
 * JSON that PostgreSQL's json functions refuse: a `\u0000` escape (text cannot hold NUL) or
 * a lone surrogate's. Properties holding one are read into JavaScript instead.
 */
const UNREADABLE_JSON = String.raw`\\u(0000|[dD][89a-fA-F])`;

/** SQLite's json_each type names. */
const JSON_TYPE = `CASE json_typeof(p.value)
  WHEN 'string' THEN 'text'
  WHEN 'boolean' THEN p.value::text
  WHEN 'number' THEN CASE WHEN p.value::text ~ '^-?[0-9]+$' THEN 'integer' ELSE 'real' END
  ELSE json_typeof(p.value) END`;

export function pgActionAnalytics(db: Sql): AnalyticsReads {
  const reads: Omit<AnalyticsReads, 'segments'> = {
    async funnel(q) {
      const where = rangeWhere(q);
      const unit = unitColumn(q.unit);
      const masks = stepMasks(q.steps).map(
        (m) => sql`WHEN kind = ${m.kind} AND name = ${m.name} THEN ${raw(String(m.mask))}`,
      );
      const mask = masks.length ? sql`CASE ${join(masks, ' ')} ELSE 0 END` : raw('0');
      const row = await db.one<{
        units: number;
        events: number;
        classified: number;
        named: number;
        unitIdentified: number;
        selected: number;
        usable: number;
        reach: [number[], number[]][] | null;
      }>(
        sql`SELECT COUNT(u) AS units, COALESCE(SUM(n), 0) AS events,
           COALESCE(SUM(c), 0) AS classified, COALESCE(SUM(nm), 0) AS named,
           COALESCE(SUM(n) FILTER (WHERE u IS NOT NULL), 0) AS "unitIdentified",
           COALESCE(SUM(sel), 0) AS selected,
           COALESCE(SUM(sel) FILTER (WHERE u IS NOT NULL), 0) AS usable,
           json_agg(json_build_array(ats, ms)) FILTER (WHERE u IS NOT NULL AND sel > 0) AS reach
         FROM (
           SELECT u, COUNT(*) AS n, COUNT(*) FILTER (WHERE ${raw(CLASSIFIED)}) AS c,
             COUNT(*) FILTER (WHERE ${named()}) AS nm, COUNT(*) FILTER (WHERE m <> 0) AS sel,
             array_agg(occurred_at) FILTER (WHERE m <> 0) AS ats,
             array_agg(m) FILTER (WHERE m <> 0) AS ms
           FROM (
             SELECT ${raw(unit)} AS u, kind, name, occurred_at, seq, ${mask} AS m
             FROM actions WHERE ${where}
           ) a
           GROUP BY u
         ) g`,
      );
      const stepUnits = q.steps.map(() => 0);
      for (const [ats, ms] of row?.reach ?? []) {
        const reached = reachedStepsInAnyOrder(ats, ms, q.windowMs);
        for (let i = 0; i < reached; i++) stepUnits[i] = (stepUnits[i] ?? 0) + 1;
      }
      return {
        events: row?.events ?? 0,
        classified: row?.classified ?? 0,
        named: row?.named ?? 0,
        unitIdentified: row?.unitIdentified ?? 0,
        units: row?.units ?? 0,
        selected: row?.selected ?? 0,
        usable: row?.usable ?? 0,
        stepUnits,
      };
    },

    async retention(q) {
      checkPeriods(q, q.periodMs);
      const where = rangeWhere(q);
      const period = periodSql(q.from, q.periodMs);
      const start = matchSql(q.start);
      const ret = matchSql(q.ret);
      // Users sharing a cohort and return periods are one row: a few thousand, not one per user.
      const rows = await db.rows<RetentionDbRow>(
        sql`SELECT cohort, "returnMask", COUNT(*) AS units, SUM(n) AS events,
           SUM(s) AS "startEvents", SUM(r) AS "returnEvents"
         FROM (
           SELECT distinct_id, COUNT(*) AS n,
             MIN(p) FILTER (WHERE ${start}) AS cohort,
             COALESCE(bit_or(1::bigint << p) FILTER (WHERE ${ret}), 0) AS "returnMask",
             COUNT(*) FILTER (WHERE ${start}) AS s, COUNT(*) FILTER (WHERE ${ret}) AS r
           FROM (
             SELECT distinct_id, kind, name, ${period}::int AS p FROM actions WHERE ${where}
           ) a
           GROUP BY distinct_id
         ) g
         GROUP BY cohort, "returnMask"`,
      );
      return retentionResult(rows);
    },

    async lifecycle(q) {
      checkPeriods(q, q.periodMs);
      const where = rangeWhere(q);
      const period = periodSql(q.from, q.periodMs);
      const match = matchSql(q.event);
      const rows = await db.rows<LifecycleDbRow>(
        sql`SELECT "activeMask", COUNT(*) AS units, SUM(n) AS events, SUM(m) AS matching
         FROM (
           SELECT distinct_id, COUNT(*) AS n, COUNT(*) FILTER (WHERE ${match}) AS m,
             COALESCE(bit_or(1::bigint << p) FILTER (WHERE ${match}), 0) AS "activeMask"
           FROM (
             SELECT distinct_id, kind, name, ${period}::int AS p FROM actions WHERE ${where}
           ) a
           GROUP BY distinct_id
         ) g
         GROUP BY "activeMask"`,
      );
      return lifecycleResult(rows);
    },

    async paths(q) {
      const where = rangeWhere(q);
      const unit = unitColumn(q.unit);
      const start = matchSql(q.start);
      // Per unit, actions numbered in (time, storage) order; only its first start action and
      // the `depth` after it are kept, and units with the same sequence count as one row.
      const row = await db.one<{
        events: number;
        unitIdentified: number;
        paths: [string[], string[], number][] | null;
      }>(
        sql`SELECT t.events, t."unitIdentified",
           (SELECT json_agg(json_build_array(kinds, names, units)) FROM (
              SELECT kinds, names, COUNT(*) AS units FROM (
                SELECT array_agg(kind ORDER BY rn) AS kinds, array_agg(name ORDER BY rn) AS names
                FROM (
                  SELECT u, kind, name, rn,
                    MIN(rn) FILTER (WHERE st) OVER (PARTITION BY u) AS first
                  FROM (
                    SELECT ${raw(unit)} AS u, kind, name, ${start} AS st,
                      row_number() OVER (PARTITION BY ${raw(unit)} ORDER BY occurred_at, seq) AS rn
                    FROM actions WHERE ${where} AND ${raw(unit)} IS NOT NULL
                  ) r
                ) f
                WHERE rn >= first AND rn <= first + ${q.depth}
                GROUP BY u
              ) p
              GROUP BY kinds, names
            ) c) AS paths
         FROM (
           SELECT COUNT(*) AS events, COUNT(${raw(unit)}) AS "unitIdentified"
           FROM actions WHERE ${where}
         ) t`,
      );
      const tally = pathTally();
      for (const [kinds, names, n] of row?.paths ?? []) {
        const steps = unitPath(
          kinds.map((kind, i) => ({ kind, name: names[i] ?? '' })),
          q.start,
          q.depth,
        );
        if (steps !== null) tally.add(steps, n);
      }
      return {
        events: row?.events ?? 0,
        unitIdentified: row?.unitIdentified ?? 0,
        units: tally.units,
        paths: tally.paths(),
      };
    },

    async segment(q) {
      const where = rangeWhere(q);
      const unit = unitColumn(q.unit);
      const match = matchSql(q.match && { kind: q.match.kind, eventName: q.match.name });
      // Distinct units per action: grouped by (action, unit) first, then counted per action.
      const top =
        q.topLimit > 0
          ? sql`(SELECT json_agg(json_build_array(name, kind, events, units)
                 ORDER BY events DESC, name, kind) FROM (
               SELECT name, kind, SUM(n) AS events, COUNT(u) AS units FROM (
                 SELECT name, kind, ${raw(unit)} AS u, COUNT(*) AS n
                 FROM actions WHERE ${where} AND ${match}
                 GROUP BY name, kind, ${raw(unit)}
               ) x
               GROUP BY name, kind
               ORDER BY events DESC, name, kind LIMIT ${q.topLimit}
             ) t)`
          : raw('NULL');
      const row = await db.one<{
        all: number;
        events: number;
        unitIdentified: number;
        units: number;
        top: [name: string, kind: string, events: number, units: number][] | null;
      }>(
        sql`SELECT COALESCE(SUM(a), 0) AS "all", COALESCE(SUM(n), 0) AS events,
           COALESCE(SUM(n) FILTER (WHERE u IS NOT NULL), 0) AS "unitIdentified",
           COUNT(u) FILTER (WHERE n > 0) AS units, ${top} AS top
         FROM (
           SELECT ${raw(unit)} AS u, COUNT(*) AS a, COUNT(*) FILTER (WHERE ${match}) AS n
           FROM actions WHERE ${where}
           GROUP BY ${raw(unit)}
         ) g`,
      );
      return {
        all: row?.all ?? 0,
        events: row?.events ?? 0,
        unitIdentified: row?.unitIdentified ?? 0,
        units: row?.units ?? 0,
        top: (row?.top ?? []).map(([name, kind, events, units]) => ({ name, kind, events, units })),
      };
    },

    async overview(q) {
      const where = rangeWhere(q);
      const bucket = periodSql(q.bucketFrom, q.stepMs);
      const row = await db.one<{
        events: number;
        named: number;
        withSession: number;
        users: number;
        sessions: number;
        actionCount: number;
        top: [name: string, kind: string, events: number, users: number, sessions: number][] | null;
        buckets: { bucket: number; events: number }[] | null;
      }>(
        sql`WITH pairs AS (
           SELECT name, kind, COUNT(*) AS events, COUNT(DISTINCT distinct_id) AS users,
             COUNT(DISTINCT session_id) AS sessions
           FROM actions WHERE ${where}
           GROUP BY name, kind
         )
         SELECT t.*, (SELECT COUNT(*) FROM pairs) AS "actionCount",
           (SELECT json_agg(json_build_array(name, kind, events, users, sessions)
              ORDER BY events DESC, name, kind) FROM (
              SELECT * FROM pairs ORDER BY events DESC, name, kind LIMIT ${q.topLimit}
            ) p) AS top,
           (SELECT json_agg(x ORDER BY bucket) FROM (
              SELECT ${bucket}::bigint AS bucket, COUNT(*) AS events
              FROM actions WHERE ${where}
              GROUP BY 1
            ) x) AS buckets
         FROM (
           SELECT COUNT(*) AS events, COUNT(*) FILTER (WHERE ${named()}) AS named,
             COUNT(session_id) AS "withSession", COUNT(DISTINCT distinct_id) AS users,
             COUNT(DISTINCT session_id) AS sessions
           FROM actions WHERE ${where}
         ) t`,
      );
      return {
        totals: {
          events: row?.events ?? 0,
          named: row?.named ?? 0,
          withSession: row?.withSession ?? 0,
          users: row?.users ?? 0,
          sessions: row?.sessions ?? 0,
        },
        buckets: (row?.buckets ?? []).map((x) => ({ bucket: x.bucket, events: x.events })),
        top: (row?.top ?? []).map(([name, kind, events, users, sessions]) => ({
          name,
          kind,
          events,
          users,
          sessions,
        })),
        actionCount: row?.actionCount ?? 0,
      };
    },

    async properties(q) {
      const where = rangeWhere(q);
      const unreadable = sql`properties ~ ${UNREADABLE_JSON}`;
      const row = await db.one<{
        events: number;
        withProperties: number;
        keys: [key: string, type: string, events: number][] | null;
        unreadable: string[] | null;
      }>(
        sql`SELECT COUNT(*) AS events, COUNT(*) FILTER (WHERE properties <> '{}') AS "withProperties",
           (SELECT json_agg(json_build_array(k.key, k.type, k.events)) FROM (
              SELECT p.key, ${raw(JSON_TYPE)} AS type, COUNT(*) AS events
              FROM actions,
                json_each((CASE WHEN ${unreadable} THEN '{}' ELSE properties END)::json) p
              WHERE ${where}
              GROUP BY 1, 2
            ) k) AS keys,
           (SELECT json_agg(properties) FROM actions WHERE ${where} AND ${unreadable})
             AS unreadable
         FROM actions WHERE ${where}`,
      );
      const tally = propertyTally();
      for (const [key, type, events] of row?.keys ?? []) tally.count(key, type, events);
      for (const text of row?.unreadable ?? [])
        for (const [key, value] of Object.entries(JSON.parse(text) as Record<string, unknown>))
          tally.count(key, sqliteJsonType(value), 1);
      return {
        events: row?.events ?? 0,
        withProperties: row?.withProperties ?? 0,
        keys: tally.keys(),
      };
    },
  };
  return { ...reads, segments: segmentsOneByOne(reads.segment) };
}
