import { expect, it } from 'vitest';
import { computeFunnel, type FunnelEvent, type FunnelStepDef } from '../domain/funnel';
import { computeLifecycle, lifecycleFromActivity } from '../domain/lifecycle';
import { computePaths, rankPaths } from '../domain/paths';
import { computeRetention, periodCount, retentionCohorts } from '../domain/retention';
import type { EventMatcher } from '../domain/retention';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Db } from '../store/sqlite/database';
import { sqliteActions } from './actions-oracle/actions';
import type {
  ActionFilteredRange,
  ActionListQuery,
  ActionsStore,
  AnalysisUnitColumn,
} from '../core/store/telemetry/actions';

/**
 * Random actions for checking a store's analytics reads, and the checks against the domain
 * functions that both stores' tests run: ties in time, rows stored out of time order (`seq`),
 * missing sessions, blank, non-BMP and NUL names, filters, properties PostgreSQL's json functions
 * cannot read (a NUL or a lone surrogate escaped).
 */
export const DAY = 86_400_000;
export const T0 = Date.UTC(2026, 0, 1);
export const PROJECT = '00000000-0000-4000-8000-000000000001';
export const OTHER = '00000000-0000-4000-8000-000000000002';
const KINDS = ['page_view', 'screen_view', 'interaction'] as const;
// U+0000 and U+E000 are stored escaped on PostgreSQL (pg-text.ts); they sort as on SQLite here.
const NAMES = [
  'Home',
  'Product',
  'Cart',
  'Buy',
  '',
  ' \t',
  'Zoë',
  '𝌆 astral',
  '\uffefBOM-ish',
  'nul\u0000name',
  '\ue000private',
];

export type Row = {
  seq: number;
  project: string;
  at: number;
  kind: string;
  name: string;
  user: string;
  session: string | null;
  environment: string;
  service: string;
  release: string;
  properties: string;
};

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

export function generate(): Row[] {
  const r = rng(7);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  const rows: Row[] = [];
  for (let i = 0; i < 1500; i++) {
    const user = `u${Math.floor(r() * r() * 40)}`;
    // Whole seconds, so many actions of one unit share a millisecond.
    const at = T0 - DAY / 2 + Math.floor(r() * 5 * DAY * 1e-3) * 1000;
    const props: Record<string, unknown> = {};
    if (r() < 0.5) props.path = '/x';
    if (r() < 0.3) props.price = r() < 0.5 ? 5 : 5.5;
    if (r() < 0.2) props.flag = r() < 0.5;
    if (r() < 0.1) props.tags = ['a'];
    if (r() < 0.1) props.nested = { a: 1 };
    if (r() < 0.1) props.none = null;
    if (r() < 0.05) props.odd = ['nul\u0000', 'lone \ud800', 'lone \udc00'][Math.floor(r() * 3)];
    if (r() < 0.03) props['k\u0000'] = r() < 0.5 ? 1 : 'x';
    if (r() < 0.03) props['k\ue000'] = r() < 0.5;
    rows.push({
      seq: i + 1,
      project: r() < 0.9 ? PROJECT : OTHER,
      at,
      kind: pick(KINDS),
      name: pick(NAMES),
      user,
      session: r() < 0.1 ? null : `${user}-s${['0', '1', '2', '\u0000'][Math.floor(r() * 4)]}`,
      environment: pick(['production', 'staging']),
      service: pick(['web', 'ios']),
      release: pick(['r1', 'r2']),
      properties: JSON.stringify(props),
    });
  }
  return rows;
}

export const rows = generate();

/**
 * A SQLite database in `dir` holding `rows`, in the table the reference reads
 * (`actions-oracle/`): the service's own SQLite file keeps no telemetry.
 */
export function openDatabaseWithRows(dir: string): Db {
  const db = new Database(path.join(dir, 'actions-oracle.sqlite'));
  db.exec(`CREATE TABLE actions (
      seq INTEGER PRIMARY KEY, id TEXT NOT NULL, project_id TEXT NOT NULL,
      occurred_at INTEGER NOT NULL, name TEXT NOT NULL, kind TEXT NOT NULL,
      distinct_id TEXT NOT NULL, session_id TEXT, properties TEXT NOT NULL,
      environment TEXT NOT NULL, release TEXT NOT NULL, service_name TEXT NOT NULL,
      trace_id TEXT, span_id TEXT, sdk_name TEXT NOT NULL, sdk_version TEXT NOT NULL,
      received_at INTEGER NOT NULL, UNIQUE (project_id, id));
    CREATE INDEX actions_by_time ON actions(project_id, occurred_at DESC, id DESC);
    CREATE INDEX actions_by_name ON actions(project_id, name, occurred_at);
    CREATE INDEX actions_by_session ON actions(project_id, session_id, occurred_at, seq, kind,
      name, environment, service_name, release);
    CREATE INDEX actions_by_user ON actions(project_id, distinct_id, occurred_at, seq, kind, name,
      environment, service_name, release, session_id);`);
  const insert = db.prepare(`INSERT INTO actions (seq, id, project_id, occurred_at, name, kind,
    distinct_id, session_id, properties, environment, release, service_name, sdk_name,
    sdk_version, received_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'sdk', '1', 0)`);
  // Stored in generation order: storage order (seq) is not time order.
  db.transaction(() => {
    for (const a of rows)
      insert.run(
        a.seq,
        `id-${a.seq}`,
        a.project,
        a.at,
        a.name,
        a.kind,
        a.user,
        a.session,
        a.properties,
        a.environment,
        a.release,
        a.service,
      );
  })();
  return db;
}

export const RANGE: ActionFilteredRange = {
  projectId: PROJECT,
  from: T0,
  to: T0 + 3 * DAY + 1234,
  environment: null,
  serviceName: null,
  release: null,
};
export const FILTERED: ActionFilteredRange[] = [
  RANGE,
  { ...RANGE, environment: 'staging' },
  { ...RANGE, serviceName: 'ios', release: 'r2' },
  { ...RANGE, from: T0 + DAY / 3, to: T0 + DAY },
];

/** The actions of a range and filters in time order, ties in storage order. */
export const inRange = (q: ActionFilteredRange) =>
  rows
    .filter(
      (a) =>
        a.project === q.projectId &&
        a.at >= q.from &&
        a.at < q.to &&
        (q.environment === null || a.environment === q.environment) &&
        (q.serviceName === null || a.service === q.serviceName) &&
        (q.release === null || a.release === q.release),
    )
    .sort((a, b) => a.at - b.at || a.seq - b.seq);

export const events = (q: ActionFilteredRange, unit: AnalysisUnitColumn): FunnelEvent[] =>
  inRange(q).map((a) => ({
    unit: unit === 'session_id' ? a.session : a.user,
    kind: a.kind,
    name: a.name,
    at: a.at,
  }));

export const blank = (name: string) => name.replace(/^[ \t\n\r]+/, '') === '';

/** The funnel, retention, lifecycle and paths of `store()` answer what the domain functions do. */
export function itAnswersAsTheDomainFunctions(store: () => ActionsStore) {
  it('answer the funnel of computeFunnel, with its coverage counts', async () => {
    const funnels: FunnelStepDef[][] = [
      [
        { kind: 'page_view', eventName: 'Home' },
        { kind: 'page_view', eventName: 'Product' },
        { kind: 'interaction', eventName: 'Buy' },
      ],
      // A repeated step and a step nothing matches.
      [
        { kind: 'page_view', eventName: 'Home' },
        { kind: 'interaction', eventName: 'Cart' },
        { kind: 'page_view', eventName: 'Home' },
        { kind: 'screen_view', eventName: 'Nowhere' },
      ],
      [
        { kind: 'screen_view', eventName: 'Zoë' },
        { kind: 'screen_view', eventName: 'Zoë' },
      ],
    ];
    for (const q of FILTERED)
      for (const unit of ['session_id', 'distinct_id'] as const)
        for (const steps of funnels)
          for (const windowMs of [1000, 3_600_000, 3 * DAY]) {
            const got = await store().funnel({ ...q, unit, steps, windowMs });
            const ev = events(q, unit);
            const want = computeFunnel(steps, windowMs, ev);
            const ids = ev.map((e) => e.unit).filter((u) => u !== null);
            expect(got).toEqual({
              events: ev.length,
              classified: ev.length,
              named: ev.filter((e) => !blank(e.name)).length,
              unitIdentified: ids.length,
              units: new Set(ids).size,
              stepUnits: want.stepUnits,
              selected: want.selectedStepEvents,
              usable: want.usableSelectedStepEvents,
            });
          }
  });

  it('answer the retention of computeRetention', async () => {
    const matchers: [EventMatcher, EventMatcher][] = [
      [null, null],
      [{ kind: 'page_view', eventName: 'Home' }, null],
      [
        { kind: 'page_view', eventName: 'Home' },
        { kind: 'interaction', eventName: 'Buy' },
      ],
    ];
    for (const q of FILTERED)
      for (const periodMs of [DAY, DAY / 5, 7 * DAY])
        for (const [start, ret] of matchers) {
          const got = await store().retention({ ...q, periodMs, start, ret });
          const ev = events(q, 'distinct_id');
          const want = computeRetention({ since: q.from, until: q.to, periodMs, start, ret }, ev);
          expect(got.events).toBe(ev.length);
          expect({
            ...retentionCohorts(periodCount(q.from, q.to, periodMs), got.activities),
            startEvents: got.startEvents,
            returnEvents: got.returnEvents,
          }).toEqual({
            cohorts: want.cohorts,
            units: want.units,
            returningUnits: want.returningUnits,
            startEvents: want.startEvents,
            returnEvents: want.returnEvents,
          });
        }
  });

  it('answer the lifecycle of computeLifecycle', async () => {
    for (const q of FILTERED)
      for (const periodMs of [DAY, DAY / 7])
        for (const event of [null, { kind: 'page_view', eventName: 'Product' }] as const) {
          const got = await store().lifecycle({ ...q, periodMs, event });
          const ev = events(q, 'distinct_id');
          expect(got.events).toBe(ev.length);
          expect(
            lifecycleFromActivity(
              periodCount(q.from, q.to, periodMs),
              got.activities,
              got.matchingEvents,
            ),
          ).toEqual(computeLifecycle({ since: q.from, until: q.to, periodMs, event }, ev));
        }
  });

  it('answer the paths of computePaths, ties in time kept in storage order', async () => {
    for (const q of FILTERED)
      for (const unit of ['session_id', 'distinct_id'] as const)
        for (const start of [null, { kind: 'interaction', eventName: 'Cart' }] as const)
          for (const depth of [1, 3, 5]) {
            const got = await store().paths({ ...q, unit, start, depth });
            const ev = events(q, unit);
            const want = computePaths({ start, depth }, ev);
            expect({ ...got, paths: rankPaths(got.paths) }).toEqual({
              events: ev.length,
              unitIdentified: ev.filter((e) => e.unit !== null).length,
              units: want.units,
              paths: want.paths,
            });
          }
  });
}

/**
 * The segments, overview, properties and list of `store()` answer what the SQLite store does
 * over the same actions (the SQLite store is checked against plain SQL in its own test).
 * `readKeys`: property keys that must be read back from rows that are hard to parse.
 */
export function itAnswersAsTheSqliteStore(
  store: () => ActionsStore,
  sqlite: () => Db,
  readKeys: string[],
) {
  it('answer segments, the overview and properties as the SQLite store does', async () => {
    const want = sqliteActions(sqlite());
    const byKey = <T extends { key: string; type: string }>(keys: T[]) =>
      [...keys].sort((a, b) => (a.key + a.type < b.key + b.type ? -1 : 1));
    for (const q of FILTERED) {
      for (const unit of ['session_id', 'distinct_id'] as const)
        for (const [match, topLimit] of [
          [null, 3],
          [{ kind: 'page_view', name: 'Home' }, 0],
          [{ kind: 'interaction', name: '𝌆 astral' }, 2],
          [{ kind: 'screen_view', name: 'nul\u0000name' }, 2],
        ] as const) {
          const s = { ...q, unit, match, topLimit };
          expect(await store().segment(s)).toEqual(await want.segment(s));
        }
    }
    // A comparison in one call (the project's counts, then segments under their own filters)
    // answers each as it answers alone; a call mixing ranges is read segment by segment.
    for (const unit of ['session_id', 'distinct_id'] as const)
      for (const [match, topLimit] of [
        [null, 3],
        [{ kind: 'interaction', name: '𝌆 astral' }, 2],
      ] as const) {
        const one = { unit, match };
        const together = [
          { ...RANGE, ...one, topLimit: 0 },
          ...FILTERED.slice(1, 3).map((q) => ({ ...q, ...one, topLimit })),
        ];
        const mixed = [...together, ...FILTERED.slice(3).map((q) => ({ ...q, ...one, topLimit }))];
        for (const qs of [together, mixed])
          expect(await store().segments(qs)).toEqual(
            await Promise.all(qs.map((q) => want.segment(q))),
          );
      }
    for (const q of FILTERED) {
      for (const topLimit of [4, 100]) {
        const o = { ...q, bucketFrom: q.from - 1234, stepMs: 3_600_000, topLimit };
        expect(await store().overview(o)).toEqual(await want.overview(o));
      }
      const got = await store().properties(q);
      const expected = await want.properties(q);
      expect({ ...got, keys: byKey(got.keys) }).toEqual({
        ...expected,
        keys: byKey(expected.keys),
      });
      // The unreadable properties are among the rows counted.
      for (const key of readKeys) expect(got.keys.some((k) => k.key === key)).toBe(true);
    }
  });

  it('lists newest first across projects, with filters and a cursor, as SQLite does', async () => {
    const want = sqliteActions(sqlite());
    const base: ActionListQuery = {
      projectIds: [PROJECT, OTHER],
      name: null,
      serviceName: null,
      release: null,
      environment: null,
      distinctId: null,
      since: null,
      after: null,
      limit: 50,
    };
    const queries: ActionListQuery[] = [
      base,
      { ...base, projectIds: [OTHER], since: T0 + DAY },
      { ...base, name: 'Zoë', environment: 'staging', limit: 7 },
      { ...base, name: 'nul\u0000name', limit: 5 },
      { ...base, distinctId: 'u1', serviceName: 'ios', release: 'r1' },
    ];
    for (const q of queries) {
      // Page through to the end: every cursor position, ties in time decided by id.
      let after: ActionListQuery['after'] = null;
      for (let page = 0; page < 200; page++) {
        const got = await store().list({ ...q, after });
        expect(got).toEqual(await want.list({ ...q, after }));
        const last = got[got.length - 1];
        if (!last || got.length < q.limit) break;
        after = { time: last.occurredAt, id: last.id };
      }
    }
  });
}
