import { stepMasks } from '../../../domain/funnel';
import { unitPath, type PathStep } from '../../../domain/paths';
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
import type {
  ActionFilteredRange,
  ActionSegmentCounts,
  ActionSegmentQuery,
  ActionAnalyticsReads,
} from '../../../core/store/telemetry/actions';
import { and, join, raw, sql, type SqlFragment } from '../../rows/sql';
import { typed } from './ch-sql';
import type { ChDb } from './clickhouse-db';
import { time } from './ch-time';

/**
 * Product analytics on ClickHouse: every read is one statement per answer, counted per unit
 * with GROUP BY (a hash table of units, not a sort of every action), arrays where order
 * matters (a funnel's steps, a path), so what crosses into JavaScript is a few rows of counts:
 * one per distinct activity (retention, lifecycle), per distinct path, per top action.
 */
type AnalyticsReads = ActionAnalyticsReads;
type PathsQuery = Parameters<AnalyticsReads['paths']>[0];

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

/** Later than every time: a step not reached is completed at `NEVER`. */
const NEVER = raw('toInt64(4000000000000000000)');

/**
 * When each step of a funnel is completed, per unit (see `reachedSteps` in domain/funnel.ts,
 * which this is in SQL): `t0` is the unit's first step-1 event; step k is completed at its
 * earliest event strictly later than step k-1's completion and at most `windowMs` after
 * `t0`, or never. `pairs[k]` is the pair number (`p`) of the events matching step k.
 *
 * Not `windowFunnel`: it starts a chain at EVERY step-1 event and keeps the best, while the
 * spec's unit enters once, at its first step-1 event in range, and the window counts from
 * that entry (a unit that tries again days later does not convert late); and how it lets one
 * event match several steps (a repeated step) differs by version. Greedy earliest matching
 * from the one entry is what the spec counts, and it needs no order of events: each step is
 * a minimum over the unit's times of that step (an array function over every unit at once),
 * so the events are neither sorted nor walked one by one. An event completes one step at
 * most, and a step at the instant of the previous one does not count (strictly later).
 *
 * `t0` is a plain minimum, not the minimum of an array of the unit's step-1 times: one array
 * fewer per unit, and the later steps' lambdas read a plain column (a fifth less CPU for 5
 * steps over 1M actions, bench/README.md).
 */
function completionsSql(pairs: number[], windowMs: number): SqlFragment[] {
  const never = NEVER;
  return pairs.map((p, k) =>
    k === 0
      ? sql`min(if(p = ${raw(String(p))}, at, ${never})) AS t0`
      : sql`arrayMin(arrayPushBack(arrayFilter(x -> x > ${raw(`t${String(k - 1)}`)}
          AND x <= t0 + ${typed(windowMs, 'Int64')}, groupArrayIf(at, p = ${raw(String(p))})),
          ${never})) AS ${raw(`t${String(k)}`)}`,
  );
}

/** A count as JavaScript takes it (counts of an empty read come back as 0). */
const n = (v: number | null | undefined) => Number(v ?? 0);

/**
 * Distinct units per action, exactly, without a set of units per action (`uniqExact` per
 * (name, kind) keeps one hash set each and was 3 to 5 times slower at 1M actions): grouped
 * by unit, each unit gets a bitmask of which of `pairs` (at most a few hundred: a top list)
 * its actions matching `when` include; the units of pair i are the units with bit i set.
 * `masks` go into the per-unit SELECT (`, m0, m1, …`), `counts` into the one over it
 * (`, b0, b1, …`: units per pair, in the order of `pairs`; a unit `u` that is NULL is none).
 */
function pairBits(
  pairs: readonly { kind: string; name: string }[],
  when: SqlFragment,
  /** Before each column's name, for several sets of pairs in one read (`s0_m0`, `s0_b0`). */
  prefix = '',
): { masks: SqlFragment; counts: SqlFragment } {
  if (pairs.length === 0) return { masks: raw(''), counts: raw('') };
  // A kind never holds U+0000 (it is one of three words): kind, NUL, name is one key per pair.
  const keys = typed(
    pairs.map((p) => `${p.kind}\u0000${p.name}`),
    'Array(String)',
  );
  const positions = typed(
    pairs.map((_, i) => i + 1),
    'Array(UInt32)',
  );
  const position = sql`transform(concat(kind, char(0), name), ${keys}, ${positions}, toUInt32(0))`;
  const masks: SqlFragment[] = [];
  for (let j = 0; j * 64 < pairs.length; j++)
    masks.push(
      sql`groupBitOrIf(bitShiftLeft(toUInt64(1), toUInt8(${position} - ${raw(String(j * 64 + 1))})),
        ${when} AND ${position} > ${raw(String(j * 64))}
          AND ${position} <= ${raw(String(j * 64 + 64))}) AS ${raw(`${prefix}m${String(j)}`)}`,
    );
  const counts = pairs.map(
    (_, i) =>
      sql`countIf(u IS NOT NULL AND bitTest(${raw(`${prefix}m${String(Math.floor(i / 64))}`)}, ${raw(String(i % 64))})) AS ${raw(`${prefix}b${String(i)}`)}`,
  );
  return {
    masks: sql`, ${join(masks, ', ')}`,
    counts: sql`, ${join(counts, ', ')}`,
  };
}

/** Actions by (name, kind) with the totals over every action in range (overview, segments). */
type TopRow = {
  name: string;
  kind: string;
  events: number;
  allEvents: number;
  named: number;
  withSession: number;
  actionCount: number;
};

/**
 * The `limit` actions of most events in `where`, then by name and kind, each row with the
 * totals over every action. Grouped by name alone, each kind counted apart: a key of one
 * low-cardinality column is grouped on its dictionary, while (name, kind) took a hashed
 * key per action and 2 to 3 times the CPU. Kinds are one of three words at ingest; an
 * action of another kind (none is stored today) makes it the read by (name, kind).
 */
async function topActions(db: ChDb, where: SqlFragment, limit: number): Promise<TopRow[]> {
  const counted = (kind: string) => sql`countIf(kind = ${kind})`;
  const [pv, sv, ia] = ['page_view', 'screen_view', 'interaction'].map(counted);
  const fast = await db.rows<TopRow & { others: number }>(
    sql`SELECT toString(name) AS name, k.1 AS kind, k.2 AS events,
        allEvents, named, withSession, actionCount, others
      FROM (
        SELECT name, ${pv} AS pv, ${sv} AS sv, ${ia} AS ia,
          sum(count()) OVER () AS allEvents,
          sum(if(${named()}, count(), 0)) OVER () AS named,
          sum(countIf(session_id IS NOT NULL)) OVER () AS withSession,
          sum((${pv} > 0) + (${sv} > 0) + (${ia} > 0)) OVER () AS actionCount,
          sum(countIf(NOT ${CLASSIFIED})) OVER () AS others
        FROM actions WHERE ${where}
        GROUP BY name
      )
      ARRAY JOIN [('page_view', pv), ('screen_view', sv), ('interaction', ia)] AS k
      WHERE k.2 > 0 OR others > 0
      ORDER BY events DESC, name, kind
      LIMIT ${Math.max(1, limit)}`,
  );
  if (n(fast[0]?.others) === 0) return fast;
  return db.rows<TopRow>(
    sql`SELECT toString(name) AS name, toString(kind) AS kind, count() AS events,
        sum(count()) OVER () AS allEvents, sum(countIf(${named()})) OVER () AS named,
        sum(countIf(session_id IS NOT NULL)) OVER () AS withSession,
        count() OVER () AS actionCount
      FROM actions WHERE ${where}
      GROUP BY name, kind ORDER BY events DESC, name, kind
      LIMIT ${Math.max(1, limit)}`,
  );
}

/**
 * Segments of one project, range, unit and match (a comparison and its project's counts):
 * each segment's top actions first (side by side); then ONE pass per unit for all of them,
 * each segment's counts and top-action marks taken under its own filters (`s<i>_…`). A pass
 * per unit over the project's actions is most of a segment's cost, so this is about one pass
 * instead of one per segment.
 */
async function segmentsTogetherOn(
  db: ChDb,
  qs: readonly ActionSegmentQuery[],
): Promise<ActionSegmentCounts[]> {
  const first = qs[0];
  if (!first) return [];
  const unit = raw(unitColumn(first.unit));
  const match = matchSql(first.match && { kind: first.match.kind, eventName: first.match.name });
  const tops = await Promise.all(
    qs.map((q) =>
      q.topLimit > 0 ? topActions(db, sql`${rangeWhere(q)} AND ${match}`, q.topLimit) : [],
    ),
  );
  const within = qs.map((q) =>
    and(exactFilters(q).map(([column, value]) => sql`${raw(column)} = ${value}`)),
  );
  const bits = qs.map((_, i) =>
    pairBits(tops[i] ?? [], sql`(${within[i] ?? raw('TRUE')}) AND ${match}`, `s${String(i)}_`),
  );
  const inner = qs.map(
    (_, i) =>
      sql`countIf(${within[i] ?? raw('TRUE')}) AS ${raw(`s${String(i)}_a`)},
        countIf((${within[i] ?? raw('TRUE')}) AND ${match}) AS ${raw(`s${String(i)}_n`)}
        ${bits[i]?.masks ?? raw('')}`,
  );
  const outer = qs.map((_, i) => {
    const s = `s${String(i)}_`;
    return sql`sum(${raw(`${s}a`)}) AS ${raw(`${s}all`)}, sum(${raw(`${s}n`)}) AS ${raw(`${s}events`)},
      sumIf(${raw(`${s}n`)}, u IS NOT NULL) AS ${raw(`${s}unitIdentified`)},
      countIf(u IS NOT NULL AND ${raw(`${s}n`)} > 0) AS ${raw(`${s}units`)}
      ${bits[i]?.counts ?? raw('')}`;
  });
  const anyWithin = qs.some((q) => exactFilters(q).length === 0)
    ? raw('TRUE')
    : join(
        within.map((w) => sql`(${w})`),
        ' OR ',
      );
  const row = await db.one<Record<string, number>>(
    sql`SELECT ${join(outer, ', ')}
      FROM (
        SELECT ${unit} AS u, ${join(inner, ', ')}
        FROM actions WHERE ${rangeWhere({ ...first, serviceName: null, release: null, environment: null })}
          AND (${anyWithin})
        GROUP BY u
      )`,
  );
  return qs.map((_, i) => {
    const s = `s${String(i)}_`;
    return {
      all: n(row?.[`${s}all`]),
      events: n(row?.[`${s}events`]),
      unitIdentified: n(row?.[`${s}unitIdentified`]),
      units: n(row?.[`${s}units`]),
      top: (tops[i] ?? []).map((t, j) => ({
        name: t.name,
        kind: t.kind,
        events: n(t.events),
        units: n(row?.[`${s}b${String(j)}`]),
      })),
    };
  });
}

/** Whether segments share what one pass per unit needs: project, range, unit and match. */
function oneProjectRead(qs: readonly ActionSegmentQuery[]): boolean {
  const first = qs[0];
  return qs.every(
    (q) =>
      q.projectId === first?.projectId &&
      q.from === first.from &&
      q.to === first.to &&
      q.unit === first.unit &&
      q.match?.kind === first.match?.kind &&
      q.match?.name === first.match?.name,
  );
}

/** Bits of a packed path action (see `paths`): its pair's code, arrival, time in range. */
const CODE_BITS = 24;
const TIME_BITS = 40;

export function clickhouseActionAnalytics(
  db: ChDb,
  /** The most distinct (kind, name) pairs paths read by number; tests give 0 (read by name). */
  maxPairCodes = 2 ** CODE_BITS - 1,
): AnalyticsReads {
  /**
   * Paths as first written: each unit's actions as (time, arrival, kind, name) tuples, sorted.
   * Exact but about twice the work; read only past the pair numbers `paths` packs, or when
   * the data changed between its two reads.
   */
  async function pathsByName(q: PathsQuery): ReturnType<AnalyticsReads['paths']> {
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
  }

  async function oneSegment(q: ActionSegmentQuery): Promise<ActionSegmentCounts> {
    const [counts] = await segmentsTogetherOn(db, [q]);
    if (!counts) throw new Error('a segment read answered nothing');
    return counts;
  }

  return {
    async funnel(q) {
      const where = rangeWhere(q);
      const unit = raw(unitColumn(q.unit));
      // Each distinct (kind, name) of the steps is one pair; `p` is an action's pair (0: none).
      const pairs = stepMasks(q.steps);
      const pair = pairs.length
        ? sql`multiIf(${join(
            pairs.map((m, i) => sql`kind = ${m.kind} AND name = ${m.name}, ${raw(String(i + 1))}`),
            ', ',
          )}, 0)`
        : raw('0');
      const stepPairs = q.steps.map((_, k) => {
        const i = pairs.findIndex((m) => (m.mask & (1 << k)) !== 0);
        return i + 1;
      });
      const never = NEVER;
      const reached = q.steps.map(
        (_, i) =>
          sql`countIf(u IS NOT NULL AND ${raw(`t${String(i)}`)} < ${never}) AS ${raw(`s${String(i)}`)}`,
      );
      const row = await db.one<Record<string, number>>(
        sql`SELECT countIf(u IS NOT NULL) AS units, sum(n) AS events,
            sum(c) AS classified, sum(nm) AS named,
            sumIf(n, u IS NOT NULL) AS unitIdentified,
            sum(sel) AS selected, sumIf(sel, u IS NOT NULL) AS usable,
            ${join(reached, ', ')}
          FROM (
            SELECT u, count() AS n, countIf(${CLASSIFIED}) AS c, countIf(${named()}) AS nm,
              countIf(p != 0) AS sel, ${join(completionsSql(stepPairs, q.windowMs), ', ')}
            FROM (
              SELECT ${unit} AS u, kind, name, ${raw(MS)} AS at, ${pair} AS p
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
      const where = rangeWhere(q);
      const unit = raw(unitColumn(q.unit));
      // The distinct names first, each with its kinds and the counts of its actions. Then
      // each action is one UInt128: time in range, arrival (`seq`), and its pair's code
      // (the name's number times the kinds' count plus the kind's number), so a unit's
      // actions are one plain array sorted by integers and its path's codes are the low bits.
      // Names and kinds are low-cardinality: `transform` numbers each dictionary entry once,
      // where a hash of (kind, name) per action materialized both strings.
      const pairs = await db.rows<{
        name: string;
        kinds: string[];
        events: number;
        unitIdentified: number;
      }>(
        sql`SELECT toString(name) AS name, arrayMap(k -> toString(k), groupUniqArray(kind)) AS kinds,
            count() AS events, countIf(${unit} IS NOT NULL) AS unitIdentified
          FROM actions WHERE ${where} GROUP BY name`,
      );
      const names = pairs.map((p) => p.name);
      const kinds = [...new Set(pairs.flatMap((p) => p.kinds))].sort();
      const stride = kinds.length + 1;
      const nameNumbers = new Map(names.map((name, i) => [name, i + 1]));
      const kindNumbers = new Map(kinds.map((kind, i) => [kind, i + 1]));
      const codeOf = (kind: string, name: string) =>
        (nameNumbers.get(name) ?? 0) * stride + (kindNumbers.get(kind) ?? 0);
      const byCode = new Map<number, PathStep>();
      for (const p of pairs)
        for (const kind of p.kinds) byCode.set(codeOf(kind, p.name), { kind, name: p.name });
      // More pairs than codes, or a range beyond the time bits (neither seen): read by name.
      if (
        byCode.size > maxPairCodes ||
        (names.length + 1) * stride >= 2 ** CODE_BITS ||
        q.to - q.from >= 2 ** TIME_BITS
      )
        return pathsByName(q);
      const startIn =
        q.start !== null &&
        pairs.some((p) => p.name === q.start?.eventName && p.kinds.includes(q.start.kind));
      const startCode = q.start !== null && startIn ? codeOf(q.start.kind, q.start.eventName) : 0;
      const code = sql`transform(name, ${typed(names, 'Array(String)')},
        ${typed(
          names.map((_, i) => (i + 1) * stride),
          'Array(UInt32)',
        )}, toUInt32(0)) + transform(kind, ${typed(kinds, 'Array(String)')},
        ${typed(
          kinds.map((_, i) => i + 1),
          'Array(UInt32)',
        )}, toUInt32(0))`;
      const packed = sql`bitOr(bitOr(
          bitShiftLeft(toUInt128(toUInt64(${raw(MS)} - ${typed(q.from, 'Int64')})), ${raw(String(128 - TIME_BITS))}),
          bitShiftLeft(toUInt128(seq), ${raw(String(CODE_BITS))})),
        toUInt128(${code}))`;
      const low = raw(String(2 ** CODE_BITS - 1));
      // No action in range, or none of the start pair: no unit has a path.
      const rows =
        names.length === 0 || (q.start !== null && !startIn)
          ? []
          : await db.rows<{ codes: number[]; units: number }>(
              sql`SELECT path AS codes, count() AS units
                FROM (
                  SELECT arraySort(groupArray(k)) AS acts,
                    ${q.start === null ? raw('1') : sql`arrayFirstIndex(x -> bitAnd(x, ${low}) = ${typed(startCode, 'UInt32')}, acts)`} AS first,
                    arrayMap(x -> toUInt32(bitAnd(x, ${low})),
                      arraySlice(acts, first, ${typed(q.depth + 1, 'Int64')})) AS path
                  FROM (
                    SELECT ${unit} AS u, ${packed} AS k
                    FROM actions WHERE ${where} AND ${unit} IS NOT NULL
                  )
                  GROUP BY u
                )
                WHERE first > 0
                GROUP BY path`,
            );
      const tally = pathTally();
      for (const r of rows) {
        const steps = r.codes.map((c) => byCode.get(Number(c)));
        // Every code read is among the pairs read: else the data changed between the reads.
        if (!steps.every((s): s is PathStep => s !== undefined)) return pathsByName(q);
        tally.add(steps, n(r.units));
      }
      return {
        events: pairs.reduce((t, p) => t + n(p.events), 0),
        unitIdentified: pairs.reduce((t, p) => t + n(p.unitIdentified), 0),
        units: tally.units,
        paths: tally.paths(),
      };
    },

    segment: oneSegment,

    segments: (qs) =>
      oneProjectRead(qs) ? segmentsTogetherOn(db, qs) : Promise.all(qs.map(oneSegment)),

    async overview(q) {
      const where = rangeWhere(q);
      // The top actions (with the totals over every action, summed over all of them), and the
      // buckets; then users and sessions, each in one pass per unit (see `pairBits`).
      const [pairs, buckets] = await Promise.all([
        topActions(db, where, q.topLimit),
        db.rows<{ bucket: number; events: number }>(
          sql`SELECT ${periodSql(q.bucketFrom, q.stepMs)} AS bucket, count() AS events
            FROM actions WHERE ${where} GROUP BY bucket ORDER BY bucket`,
        ),
      ]);
      const top = pairs.slice(0, q.topLimit);
      const bits = pairBits(top, raw('1'));
      const perUnit = (column: string) =>
        db.one<Record<string, number>>(
          sql`SELECT count() AS units ${bits.counts}
            FROM (
              SELECT ${raw(column)} AS u ${bits.masks}
              FROM actions WHERE ${where}
              GROUP BY u
            )
            WHERE u IS NOT NULL`,
        );
      const [users, sessions] = await Promise.all([perUnit('distinct_id'), perUnit('session_id')]);
      const totals = pairs[0];
      return {
        totals: {
          events: n(totals?.allEvents),
          named: n(totals?.named),
          withSession: n(totals?.withSession),
          users: n(users?.units),
          sessions: n(sessions?.units),
        },
        buckets: buckets.map((b) => ({ bucket: n(b.bucket), events: n(b.events) })),
        top: top.map((t, i) => ({
          name: t.name,
          kind: t.kind,
          events: n(t.events),
          users: n(users?.[`b${String(i)}`]),
          sessions: n(sessions?.[`b${String(i)}`]),
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
