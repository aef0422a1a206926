import { stepMasks } from '../../../domain/funnel';
import { unitPath } from '../../../domain/paths';
import type { EventMatcher } from '../../../domain/retention';
import {
  BLANK,
  checkPeriods,
  exactFilters,
  lifecycleResult,
  pathTally,
  propertyTally,
  retentionResult,
  sqliteJsonType,
  unitColumn,
  type LifecycleDbRow,
  type RetentionDbRow,
} from '../../rows/action-analytics';
import type { ActionFilteredRange, ActionsStore } from '../../../core/store/telemetry/actions';
import { and, join, raw, sql, type SqlFragment } from '../../rows/sql';
import { typed } from './ch-sql';
import type { ChDb } from './clickhouse-db';

/**
 * Product analytics on ClickHouse: every read is one statement per answer, counted per unit
 * with GROUP BY (a hash table of units, not a sort of every action), arrays where order
 * matters (a funnel's steps, a path), so what crosses into JavaScript is a few rows of counts:
 * one per distinct activity (retention, lifecycle), per distinct path, per top action.
 */
type AnalyticsReads = Pick<
  ActionsStore,
  'funnel' | 'retention' | 'lifecycle' | 'paths' | 'segment' | 'overview' | 'properties'
>;

const time = (ms: number) => sql`fromUnixTimestamp64Milli(${typed(ms, 'Int64')}, 'UTC')`;
const MS = 'toUnixTimestamp64Milli(occurred_at)';

/** The range and exact filters of an analytics read (along the table's primary key). */
const rangeWhere = (q: ActionFilteredRange): SqlFragment =>
  and([
    sql`project_id = ${q.projectId}`,
    sql`occurred_at >= ${time(q.from)}`,
    sql`occurred_at < ${time(q.to)}`,
    ...exactFilters(q).map(([column, value]) => sql`${raw(column)} = ${value}`),
  ]);

/** `1` for any action, else a match on kind and name. */
const matchSql = (m: EventMatcher | { kind: string; eventName: string }): SqlFragment =>
  m === null ? raw('1') : sql`(kind = ${m.kind} AND name = ${m.eventName})`;

/**
 * The period (or bucket) of `occurred_at` from `from` in steps of `stepMs`, truncated toward
 * zero as SQLite's CAST does, divided in double precision (a period of a seventh of a day is
 * fractional) as SQLite and the domain functions divide.
 */
const periodSql = (from: number, stepMs: number): SqlFragment =>
  sql`toInt64(trunc((${raw(MS)} - ${typed(from, 'Int64')}) / ${typed(stepMs, 'Float64')}))`;

const CLASSIFIED = raw(`kind IN ('page_view', 'screen_view', 'interaction')`);
/** Not only spaces, tabs and line breaks (SQLite's `trim(name, …) <> ''`). */
const named = (): SqlFragment => sql`trimBoth(name, ${BLANK}) != ''`;

/**
 * `JSONExtract…` refuses a whole document holding a lone surrogate's escape (JSON.stringify
 * writes one as `\udXXX`): those few properties are read into JavaScript and counted there.
 */
const UNREADABLE = raw(`(position(properties, '\\\\u') > 0 AND NOT isValidJSON(properties))`);

/** SQLite's json_each type of a value's JSON text (numbers by their text, as PostgreSQL does). */
const jsonType = (v: string) => `multiIf(startsWith(${v}, '"'), 'text', ${v} = 'true', 'true',
  ${v} = 'false', 'false', ${v} = 'null', 'null', startsWith(${v}, '['), 'array',
  startsWith(${v}, '{'), 'object', match(${v}, '^-?[0-9]+$'), 'integer', 'real')`;

/**
 * How many steps a unit completes, from `groupArray((at, mask))` of its step events (see
 * `reachedSteps` in domain/funnel.ts, which this is, step for step, in SQL).
 *
 * Not `windowFunnel`: it starts a chain at EVERY step-1 event and keeps the best, while the
 * spec's unit enters once, at its first step-1 event in range, and the window counts from
 * that entry (a unit that tries again days later does not convert late); its handling of
 * one event matching several steps (a repeated step) also differs by version. So the fold
 * below walks the unit's step events in time order with (reached, entry, last, stopped):
 * the first step-1 event enters; each later event completes the next step only when it
 * matches it, is strictly later than the last completed step and within the window of the
 * entry; the first one that would match past the window stops the walk. Ties in time may be
 * in any order: at one instant at most one step is completed.
 */
const reachedSql = (windowMs: number): SqlFragment => sql`arrayFold((acc, x) ->
    if(acc.4 = 1 OR bitAnd(x.2, bitShiftLeft(toInt64(1), acc.1)) = 0, acc,
    if(acc.1 = 0, (toInt64(1), x.1, x.1, toInt64(0)),
    if(x.1 - acc.2 > ${typed(windowMs, 'Int64')}, (acc.1, acc.2, acc.3, toInt64(1)),
    if(x.1 <= acc.3, acc, (acc.1 + 1, acc.2, x.1, toInt64(0)))))),
  arraySort(groupArrayIf((at, m), m != 0)),
  (toInt64(0), toInt64(0), toInt64(0), toInt64(0))).1`;

/** A count as JavaScript takes it (counts of an empty read come back as 0). */
const n = (v: number | null | undefined) => Number(v ?? 0);

export function clickhouseActionAnalytics(db: ChDb): AnalyticsReads {
  return {
    async funnel(q) {
      const where = rangeWhere(q);
      const unit = raw(unitColumn(q.unit));
      const masks = stepMasks(q.steps).map(
        (m) => sql`kind = ${m.kind} AND name = ${m.name}, ${typed(m.mask, 'Int64')}`,
      );
      const mask = masks.length
        ? sql`multiIf(${join(masks, ', ')}, toInt64(0))`
        : raw('toInt64(0)');
      const reached = q.steps.map((_, i) =>
        raw(`countIf(u IS NOT NULL AND r > ${String(i)}) AS s${String(i)}`),
      );
      const row = await db.one<Record<string, number>>(
        sql`SELECT countIf(u IS NOT NULL) AS units, sum(n) AS events,
            sum(c) AS classified, sum(nm) AS named,
            sumIf(n, u IS NOT NULL) AS unitIdentified,
            sum(sel) AS selected, sumIf(sel, u IS NOT NULL) AS usable,
            ${join(reached, ', ')}
          FROM (
            SELECT u, count() AS n, countIf(${CLASSIFIED}) AS c, countIf(${named()}) AS nm,
              countIf(m != 0) AS sel, ${reachedSql(q.windowMs)} AS r
            FROM (
              SELECT ${unit} AS u, kind, name, ${raw(MS)} AS at, ${mask} AS m
              FROM actions WHERE ${where}
            )
            GROUP BY u
          )`,
      );
      return {
        events: n(row?.events),
        classified: n(row?.classified),
        named: n(row?.named),
        unitIdentified: n(row?.unitIdentified),
        units: n(row?.units),
        selected: n(row?.selected),
        usable: n(row?.usable),
        stepUnits: q.steps.map((_, i) => n(row?.[`s${String(i)}`])),
      };
    },

    async retention(q) {
      checkPeriods(q, q.periodMs);
      const start = matchSql(q.start);
      const ret = matchSql(q.ret);
      // Users sharing a cohort and return periods are one row: a few thousand, not one per user.
      const rows = await db.rows<RetentionDbRow>(
        sql`SELECT cohort, returnMask, count() AS units, sum(n) AS events,
            sum(s) AS startEvents, sum(r) AS returnEvents
          FROM (
            SELECT distinct_id, count() AS n, minIfOrNull(p, ${start}) AS cohort,
              groupBitOrIf(bitShiftLeft(toUInt64(1), p), ${ret}) AS returnMask,
              countIf(${start}) AS s, countIf(${ret}) AS r
            FROM (
              SELECT distinct_id, kind, name, ${periodSql(q.from, q.periodMs)} AS p
              FROM actions WHERE ${rangeWhere(q)}
            )
            GROUP BY distinct_id
          )
          GROUP BY cohort, returnMask`,
      );
      return retentionResult(rows);
    },

    async lifecycle(q) {
      checkPeriods(q, q.periodMs);
      const match = matchSql(q.event);
      const rows = await db.rows<LifecycleDbRow>(
        sql`SELECT activeMask, count() AS units, sum(n) AS events, sum(m) AS matching
          FROM (
            SELECT distinct_id, count() AS n, countIf(${match}) AS m,
              groupBitOrIf(bitShiftLeft(toUInt64(1), p), ${match}) AS activeMask
            FROM (
              SELECT distinct_id, kind, name, ${periodSql(q.from, q.periodMs)} AS p
              FROM actions WHERE ${rangeWhere(q)}
            )
            GROUP BY distinct_id
          )
          GROUP BY activeMask`,
      );
      return lifecycleResult(rows);
    },

    async paths(q) {
      const unit = raw(unitColumn(q.unit));
      const start =
        q.start === null ? raw('1') : sql`a.3 = ${q.start.kind} AND a.4 = ${q.start.eventName}`;
      // Per unit, its actions in (time, storage) order; its first start action and the
      // `depth` after it are its path. Units with the same path are one row, and the row
      // of units without a path (none identified, or no start action) carries only counts.
      const rows = await db.rows<{
        kinds: string[];
        names: string[];
        units: number;
        events: number;
        unitIdentified: number;
      }>(
        sql`SELECT kinds, names, count() AS units, sum(n) AS events,
            sumIf(n, identified) AS unitIdentified
          FROM (
            SELECT u IS NOT NULL AS identified, count() AS n,
              arraySort(groupArrayIf((at, seq, kind, name), identified)) AS acts,
              arrayFirstIndex(a -> ${start}, acts) AS first,
              if(first = 0, [], arraySlice(acts, first, ${typed(q.depth + 1, 'Int64')})) AS path,
              arrayMap(a -> toString(a.3), path) AS kinds,
              arrayMap(a -> toString(a.4), path) AS names
            FROM (
              SELECT ${unit} AS u, ${raw(MS)} AS at, seq, kind, name
              FROM actions WHERE ${rangeWhere(q)}
            )
            GROUP BY u
          )
          GROUP BY kinds, names`,
      );
      const tally = pathTally();
      for (const r of rows) {
        if (r.kinds.length === 0) continue;
        const steps = unitPath(
          r.kinds.map((kind, i) => ({ kind, name: r.names[i] ?? '' })),
          q.start,
          q.depth,
        );
        if (steps !== null) tally.add(steps, n(r.units));
      }
      return {
        events: rows.reduce((t, r) => t + n(r.events), 0),
        unitIdentified: rows.reduce((t, r) => t + n(r.unitIdentified), 0),
        units: tally.units,
        paths: tally.paths(),
      };
    },

    async segment(q) {
      const where = rangeWhere(q);
      const unit = raw(unitColumn(q.unit));
      const match = matchSql(q.match && { kind: q.match.kind, eventName: q.match.name });
      const [counts, top] = await Promise.all([
        db.one<{ all: number; events: number; unitIdentified: number; units: number }>(
          sql`SELECT count() AS all, countIf(${match}) AS events,
              countIf(${match} AND ${unit} IS NOT NULL) AS unitIdentified,
              uniqExactIf(${unit}, ${match}) AS units
            FROM actions WHERE ${where}`,
        ),
        q.topLimit > 0
          ? db.rows<{ name: string; kind: string; events: number; units: number }>(
              sql`SELECT toString(name) AS name, toString(kind) AS kind, count() AS events,
                  uniqExact(${unit}) AS units
                FROM actions WHERE ${where} AND ${match}
                GROUP BY name, kind ORDER BY events DESC, name, kind LIMIT ${q.topLimit}`,
            )
          : Promise.resolve([]),
      ]);
      return {
        all: n(counts?.all),
        events: n(counts?.events),
        unitIdentified: n(counts?.unitIdentified),
        units: n(counts?.units),
        top: top.map((t) => ({
          name: t.name,
          kind: t.kind,
          events: n(t.events),
          units: n(t.units),
        })),
      };
    },

    async overview(q) {
      const where = rangeWhere(q);
      const [totals, buckets, top] = await Promise.all([
        db.one<{
          events: number;
          named: number;
          withSession: number;
          users: number;
          sessions: number;
          actionCount: number;
        }>(
          sql`SELECT count() AS events, countIf(${named()}) AS named,
              countIf(session_id IS NOT NULL) AS withSession, uniqExact(distinct_id) AS users,
              uniqExact(session_id) AS sessions, uniqExact(name, kind) AS actionCount
            FROM actions WHERE ${where}`,
        ),
        db.rows<{ bucket: number; events: number }>(
          sql`SELECT ${periodSql(q.bucketFrom, q.stepMs)} AS bucket, count() AS events
            FROM actions WHERE ${where} GROUP BY bucket ORDER BY bucket`,
        ),
        db.rows<{ name: string; kind: string; events: number; users: number; sessions: number }>(
          sql`SELECT toString(name) AS name, toString(kind) AS kind, count() AS events,
              uniqExact(distinct_id) AS users, uniqExact(session_id) AS sessions
            FROM actions WHERE ${where}
            GROUP BY name, kind ORDER BY events DESC, name, kind LIMIT ${q.topLimit}`,
        ),
      ]);
      return {
        totals: {
          events: n(totals?.events),
          named: n(totals?.named),
          withSession: n(totals?.withSession),
          users: n(totals?.users),
          sessions: n(totals?.sessions),
        },
        buckets: buckets.map((b) => ({ bucket: n(b.bucket), events: n(b.events) })),
        top: top.map((t) => ({
          name: t.name,
          kind: t.kind,
          events: n(t.events),
          users: n(t.users),
          sessions: n(t.sessions),
        })),
        actionCount: n(totals?.actionCount),
      };
    },

    async properties(q) {
      const where = rangeWhere(q);
      const [counts, keys, unreadable] = await Promise.all([
        db.one<{ events: number; withProperties: number }>(
          sql`SELECT count() AS events, countIf(properties != '{}') AS withProperties
            FROM actions WHERE ${where}`,
        ),
        db.rows<{ key: string; type: string; events: number }>(
          sql`SELECT kv.1 AS key, ${raw(jsonType('kv.2'))} AS type, count() AS events
            FROM actions ARRAY JOIN JSONExtractKeysAndValuesRaw(properties) AS kv
            WHERE ${where}
            GROUP BY key, type`,
        ),
        db.rows<{ properties: string }>(
          sql`SELECT properties FROM actions WHERE ${where} AND ${UNREADABLE}`,
        ),
      ]);
      const tally = propertyTally();
      for (const k of keys) tally.count(k.key, k.type, n(k.events));
      for (const { properties } of unreadable)
        for (const [key, value] of Object.entries(
          JSON.parse(properties) as Record<string, unknown>,
        ))
          tally.count(key, sqliteJsonType(value), 1);
      return {
        events: n(counts?.events),
        withProperties: n(counts?.withProperties),
        keys: tally.keys(),
      };
    },
  };
}
