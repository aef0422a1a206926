import { stepMasks } from '../../domain/funnel';
import { unitPath, type PathStep } from '../../domain/paths';
import type { Db } from '../../store/sqlite/database';
import {
  BLANK,
  checkPeriods,
  exactFilters,
  lifecycleResult,
  pathTally,
  propertyTally,
  reachedStepsInAnyOrder,
  retentionResult,
  unitColumn,
  type LifecycleDbRow,
  type RetentionDbRow,
} from '../../store/rows/action-analytics';
import {
  segmentsOneByOne,
  type ActionFilteredRange,
  type ActionSegmentCounts,
  type ActionAnalyticsReads,
  type AnalysisUnitColumn,
} from '../../core/store/telemetry/actions';

/**
 * Product analytics reads. Counting per unit (session or user) reads the range in unit order
 * from `actions_by_session` or `actions_by_user` (migration 14), so GROUP BY unit streams
 * instead of sorting every action in range; what needs more than SQL aggregates (a funnel's
 * ordered steps, paths, distinct units per action) runs in a JavaScript aggregate per unit, so
 * no action crosses into JavaScript as a row object.
 */
type AnalyticsReads = ActionAnalyticsReads;

/**
 * A JavaScript aggregate's work: `start` makes one group's state, `step` sees each of its rows'
 * arguments and `finish` the state once the group ends.
 */
type Collector<S> = {
  start: () => S;
  step: (state: S, args: unknown[]) => void;
  finish?: (state: S) => void;
};

/** Only these names ever reach the SQL text (see `unitColumn`). */
const UNIT_INDEX: Record<AnalysisUnitColumn, string> = {
  session_id: 'actions_by_session',
  distinct_id: 'actions_by_user',
};
const CLASSIFIED = `kind IN ('page_view', 'screen_view', 'interaction')`;
/** Bound once as `@blank` rather than built per row from char(). */
const NAMED = `trim(name, @blank) <> ''`;

type Params = Record<string, string | number>;

/** The range and exact filters as named parameters (`@projectId`, `@from`, …). */
function rangeWhere(q: ActionFilteredRange): { where: string; params: Params } {
  const where = ['project_id = @projectId', 'occurred_at >= @from', 'occurred_at < @to'];
  const params: Params = { projectId: q.projectId, from: q.from, to: q.to, blank: BLANK };
  for (const [column, value] of exactFilters(q)) {
    where.push(`${column} = @${column}`);
    params[column] = value;
  }
  return { where: where.join(' AND '), params };
}

/** `1` for any action, else a match on kind and name bound as `@<prefix>Kind`, `@<prefix>Name`. */
function matchSql(
  m: { kind: string; eventName: string } | null,
  prefix: string,
  params: Params,
): string {
  if (m === null) return '1';
  params[`${prefix}Kind`] = m.kind;
  params[`${prefix}Name`] = m.eventName;
  return `(kind = @${prefix}Kind AND name = @${prefix}Name)`;
}

/** The period of `occurred_at`, counted from `@from` in steps of `@periodMs`. */
const PERIOD = 'CAST((occurred_at - @from) / @periodMs AS INTEGER)';

/** An action's (kind, name) as one text, built in SQL: one string per row into JavaScript. */
const PAIR = `kind || char(0) || name`;

/** SQLite's BINARY order of text (UTF-8 bytes), which differs from `<` beyond the BMP. */
const binary = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** Counts per (kind, name): events and distinct units, the units deduplicated per group. */
function pairCounter() {
  const events = new Map<string, number>();
  const units = new Map<string, number>();
  return {
    events,
    units,
    /** One action of a group (`key` is its `PAIR`); `counted` says whether the group is a unit. */
    add(seen: Set<string>, key: string, counted: boolean) {
      events.set(key, (events.get(key) ?? 0) + 1);
      if (!counted || seen.has(key)) return;
      seen.add(key);
      units.set(key, (units.get(key) ?? 0) + 1);
    },
    /** The pairs by events (most first), then name and kind as SQLite orders them. */
    top(limit: number) {
      return [...events.entries()]
        .map(([key, n]) => {
          const cut = key.indexOf('\u0000');
          return { kind: key.slice(0, cut), name: key.slice(cut + 1), events: n, key };
        })
        .sort((a, b) => b.events - a.events || binary(a.name, b.name) || binary(a.kind, b.kind))
        .slice(0, limit);
    },
  };
}

export function sqliteActionAnalytics(db: Db): AnalyticsReads {
  let current: Collector<unknown> | null = null;
  const active = (): Collector<unknown> => {
    if (current === null) throw new Error('lookout_collect outside a collecting read');
    return current;
  };
  db.aggregate('lookout_collect', {
    varargs: true,
    start: () => ({ state: active().start() }),
    step: ((box: { state: unknown }, ...args: unknown[]) => {
      active().step(box.state, args);
    }) as (box: { state: unknown }) => void,
    result: (box: { state: unknown }) => {
      active().finish?.(box.state);
      return null;
    },
  });
  /** Runs `read` with `collector` receiving every `lookout_collect(…)` group. */
  const collecting = <S, T>(collector: Collector<S>, read: () => T): T => {
    current = collector as Collector<unknown>;
    try {
      return read();
    } finally {
      current = null;
    }
  };

  // A unit's step events (time, step bitmask) in scan order.
  type Steps = { ats: number[]; masks: number[]; windowMs: number };
  db.aggregate('lookout_funnel_reach', {
    start: (): Steps => ({ ats: [], masks: [], windowMs: 0 }),
    step: ((s: Steps, at: unknown, mask: unknown, windowMs: unknown) => {
      s.ats.push(Number(at));
      s.masks.push(Number(mask));
      s.windowMs = Number(windowMs);
    }) as (s: Steps) => void,
    result: (s: Steps) => reachedStepsInAnyOrder(s.ats, s.masks, s.windowMs),
  });

  const reads: Omit<AnalyticsReads, 'segments'> = {
    async funnel(q) {
      const { where, params } = rangeWhere(q);
      const unit = unitColumn(q.unit);
      const masks = stepMasks(q.steps);
      const mask = masks.length
        ? `CASE ${masks.map((_, i) => `WHEN kind = @k${i} AND name = @n${i} THEN ${masks[i]?.mask ?? 0}`).join(' ')} ELSE 0 END`
        : '0';
      masks.forEach((m, i) => {
        params[`k${i}`] = m.kind;
        params[`n${i}`] = m.name;
      });
      params.windowMs = q.windowMs;
      const reached = q.steps.map(
        (_, i) => `COALESCE(SUM(CASE WHEN u IS NOT NULL AND r > ${i} THEN 1 END), 0) AS s${i}`,
      );
      const row = db
        .prepare<Params, Record<string, number>>(
          `SELECT COUNT(u) AS units, COALESCE(SUM(n), 0) AS events,
             COALESCE(SUM(c), 0) AS classified, COALESCE(SUM(nm), 0) AS named,
             COALESCE(SUM(CASE WHEN u IS NOT NULL THEN n END), 0) AS unitIdentified,
             COALESCE(SUM(sel), 0) AS selected,
             COALESCE(SUM(CASE WHEN u IS NOT NULL THEN sel END), 0) AS usable,
             ${reached.join(', ')}
           FROM (
             SELECT ${unit} AS u, COUNT(*) AS n, SUM(${CLASSIFIED}) AS c, SUM(${NAMED}) AS nm,
               SUM(m <> 0) AS sel,
               lookout_funnel_reach(occurred_at, m, @windowMs) FILTER (WHERE m <> 0) AS r
             FROM (
               SELECT ${unit}, kind, name, occurred_at, ${mask} AS m
               FROM actions INDEXED BY ${UNIT_INDEX[q.unit]} WHERE ${where}
             )
             GROUP BY ${unit}
           )`,
        )
        .get(params);
      const n = (key: string) => row?.[key] ?? 0;
      return {
        events: n('events'),
        classified: n('classified'),
        named: n('named'),
        unitIdentified: n('unitIdentified'),
        units: n('units'),
        selected: n('selected'),
        usable: n('usable'),
        stepUnits: q.steps.map((_, i) => n(`s${i}`)),
      };
    },

    async retention(q) {
      checkPeriods(q, q.periodMs);
      const { where, params } = rangeWhere(q);
      params.periodMs = q.periodMs;
      const start = matchSql(q.start, 'start', params);
      const ret = matchSql(q.ret, 'ret', params);
      // Users sharing a cohort and return periods are one row: a few thousand, not one per user.
      const rows = db
        .prepare<Params, RetentionDbRow>(
          `SELECT cohort, returnMask, COUNT(*) AS units, SUM(n) AS events,
             SUM(s) AS startEvents, SUM(r) AS returnEvents
           FROM (
             SELECT distinct_id, COUNT(*) AS n,
               MIN(CASE WHEN ${start} THEN ${PERIOD} END) AS cohort,
               COALESCE(SUM(DISTINCT CASE WHEN ${ret} THEN 1 << ${PERIOD} END), 0) AS returnMask,
               SUM(${start}) AS s, SUM(${ret}) AS r
             FROM actions INDEXED BY actions_by_user WHERE ${where}
             GROUP BY distinct_id
           )
           GROUP BY cohort, returnMask`,
        )
        .all(params);
      return retentionResult(rows);
    },

    async lifecycle(q) {
      checkPeriods(q, q.periodMs);
      const { where, params } = rangeWhere(q);
      params.periodMs = q.periodMs;
      const match = matchSql(q.event, 'event', params);
      const rows = db
        .prepare<Params, LifecycleDbRow>(
          `SELECT activeMask, COUNT(*) AS units, SUM(n) AS events, SUM(m) AS matching
           FROM (
             SELECT distinct_id, COUNT(*) AS n, SUM(${match}) AS m,
               COALESCE(SUM(DISTINCT CASE WHEN ${match} THEN 1 << ${PERIOD} END), 0) AS activeMask
             FROM actions INDEXED BY actions_by_user WHERE ${where}
             GROUP BY distinct_id
           )
           GROUP BY activeMask`,
        )
        .all(params);
      return lifecycleResult(rows);
    },

    async paths(q) {
      const { where, params } = rangeWhere(q);
      const unit = unitColumn(q.unit);
      const tally = pathTally();
      // Parallel arrays, not an object per action; rows come in (time, seq) order from the
      // index, sorted here only if they ever do not.
      type Unit = {
        pairs: string[];
        ats: number[];
        seqs: number[];
        sorted: boolean;
      };
      const row = collecting(
        {
          start: (): Unit => ({ pairs: [], ats: [], seqs: [], sorted: true }),
          step: (u: Unit, [pair, at, seq]) => {
            const t = Number(at);
            const n = Number(seq);
            const last = u.ats.length - 1;
            if (last >= 0) {
              const lastAt = u.ats[last] ?? t;
              if (t < lastAt || (t === lastAt && n < (u.seqs[last] ?? n))) u.sorted = false;
            }
            u.pairs.push(String(pair));
            u.ats.push(t);
            u.seqs.push(n);
          },
          finish: (u: Unit) => {
            const order = u.ats.map((_, i) => i);
            if (!u.sorted)
              order.sort(
                (a, b) => (u.ats[a] ?? 0) - (u.ats[b] ?? 0) || (u.seqs[a] ?? 0) - (u.seqs[b] ?? 0),
              );
            const step = (i: number): PathStep => {
              const pair = u.pairs[i] ?? '';
              const cut = pair.indexOf('\u0000');
              return { kind: pair.slice(0, cut), name: pair.slice(cut + 1) };
            };
            // Only the start and the `depth` after it become steps.
            const from = order.findIndex((i) => {
              const s = step(i);
              return q.start === null || (s.kind === q.start.kind && s.name === q.start.eventName);
            });
            if (from < 0) return;
            const steps = unitPath(
              order.slice(from, from + 1 + q.depth).map(step),
              q.start,
              q.depth,
            );
            if (steps !== null) tally.add(steps, 1);
          },
        },
        () =>
          db
            .prepare<Params, { events: number; unitIdentified: number }>(
              `SELECT COALESCE(SUM(n), 0) AS events,
                 COALESCE(SUM(CASE WHEN u IS NOT NULL THEN n END), 0) AS unitIdentified
               FROM (
                 SELECT ${unit} AS u, COUNT(*) AS n,
                   lookout_collect(${PAIR}, occurred_at, seq)
                     FILTER (WHERE ${unit} IS NOT NULL) AS x
                 FROM actions INDEXED BY ${UNIT_INDEX[q.unit]} WHERE ${where}
                 GROUP BY ${unit}
               )`,
            )
            .get(params),
      );
      return {
        events: row?.events ?? 0,
        unitIdentified: row?.unitIdentified ?? 0,
        units: tally.units,
        paths: tally.paths(),
      };
    },

    async segment(q) {
      const { where, params } = rangeWhere(q);
      const unit = unitColumn(q.unit);
      const match = matchSql(
        q.match && { kind: q.match.kind, eventName: q.match.name },
        'match',
        params,
      );
      const pairs = pairCounter();
      const withTop = q.topLimit > 0;
      const row = collecting(
        {
          start: () => new Set<string>(),
          step: (seen: Set<string>, [u, key]) => {
            pairs.add(seen, String(key), u !== null);
          },
        },
        () =>
          db
            .prepare<
              Params,
              { all: number; events: number; unitIdentified: number; units: number }
            >(
              `SELECT COALESCE(SUM(a), 0) AS "all", COALESCE(SUM(n), 0) AS events,
                 COALESCE(SUM(CASE WHEN u IS NOT NULL THEN n END), 0) AS unitIdentified,
                 COUNT(CASE WHEN n > 0 THEN u END) AS units
               FROM (
                 SELECT ${unit} AS u, COUNT(*) AS a, SUM(${match}) AS n
                   ${withTop ? `, lookout_collect(${unit}, ${PAIR}) FILTER (WHERE ${match}) AS x` : ''}
                 FROM actions INDEXED BY ${UNIT_INDEX[q.unit]} WHERE ${where}
                 GROUP BY ${unit}
               )`,
            )
            .get(params),
      );
      const top: ActionSegmentCounts['top'] = withTop
        ? pairs.top(q.topLimit).map((p) => ({
            name: p.name,
            kind: p.kind,
            events: p.events,
            units: pairs.units.get(p.key) ?? 0,
          }))
        : [];
      return {
        all: row?.all ?? 0,
        events: row?.events ?? 0,
        unitIdentified: row?.unitIdentified ?? 0,
        units: row?.units ?? 0,
        top,
      };
    },

    async overview(q) {
      const { where, params } = rangeWhere(q);
      // One pass in user order: pairs are deduplicated per user; sessions (which a user may
      // share) are counted in sets, overall and per action.
      const byUser = pairCounter();
      const sessions = new Set<string>();
      const sessionsOf = new Map<string, Set<string>>();
      const buckets = new Map<number, number>();
      let named = 0;
      let withSession = 0;
      params.bucketFrom = q.bucketFrom;
      params.stepMs = q.stepMs;
      const users =
        collecting(
          {
            start: () => new Set<string>(),
            step: (seen: Set<string>, [pair, bucket, hasName, session]) => {
              const key = String(pair);
              byUser.add(seen, key, true);
              const b = Number(bucket);
              buckets.set(b, (buckets.get(b) ?? 0) + 1);
              named += Number(hasName);
              if (session === null) return;
              withSession++;
              const id = String(session);
              sessions.add(id);
              let of = sessionsOf.get(key);
              if (!of) sessionsOf.set(key, (of = new Set()));
              of.add(id);
            },
          },
          () =>
            db
              .prepare<Params, { n: number }>(
                `SELECT COUNT(*) AS n FROM (
                   SELECT lookout_collect(${PAIR},
                     CAST((occurred_at - @bucketFrom) / @stepMs AS INTEGER), ${NAMED}, session_id)
                   FROM actions INDEXED BY actions_by_user WHERE ${where}
                   GROUP BY distinct_id
                 )`,
              )
              .get(params)?.n,
        ) ?? 0;
      const events = [...byUser.events.values()].reduce((a, b) => a + b, 0);
      return {
        totals: { events, named, withSession, users, sessions: sessions.size },
        buckets: [...buckets.entries()]
          .sort((a, b) => a[0] - b[0])
          .map(([bucket, n]) => ({ bucket, events: n })),
        top: byUser.top(q.topLimit).map((p) => ({
          name: p.name,
          kind: p.kind,
          events: p.events,
          users: byUser.units.get(p.key) ?? 0,
          sessions: sessionsOf.get(p.key)?.size ?? 0,
        })),
        actionCount: byUser.events.size,
      };
    },

    async properties(q) {
      const { where, params } = rangeWhere(q);
      // One pass; each action's keys and types come as one JSON text (few distinct ones),
      // counted here: a GROUP BY would sort every key of every action in range.
      const shapes = new Map<string, number>();
      const counts = collecting(
        {
          start: () => null,
          step: (_: null, [shape]) => {
            const k = String(shape);
            shapes.set(k, (shapes.get(k) ?? 0) + 1);
          },
        },
        () =>
          db
            .prepare<Params, { events: number; withProperties: number }>(
              `SELECT COUNT(*) AS events, COALESCE(SUM(properties <> '{}'), 0) AS withProperties,
                 lookout_collect((SELECT json_group_array(json_array(p.key, p.type))
                   FROM json_each(actions.properties) p)) AS x
               FROM actions WHERE ${where}`,
            )
            .get(params),
      ) ?? { events: 0, withProperties: 0 };
      const tally = propertyTally();
      for (const [shape, n] of shapes)
        for (const [key, type] of JSON.parse(shape) as [string, string][])
          tally.count(key, type, n);
      return {
        events: counts.events,
        withProperties: counts.withProperties,
        keys: tally.keys(),
      };
    },
  };
  return { ...reads, segments: segmentsOneByOne(reads.segment) };
}
