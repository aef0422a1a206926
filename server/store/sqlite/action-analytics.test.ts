import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeFunnel, type FunnelEvent, type FunnelStepDef } from '../../domain/funnel';
import { computeLifecycle } from '../../domain/lifecycle';
import { computePaths, rankPaths } from '../../domain/paths';
import { computeRetention, periodCount, retentionCohorts } from '../../domain/retention';
import type { EventMatcher } from '../../domain/retention';
import { lifecycleFromActivity } from '../../domain/lifecycle';
import { openDatabase, type Db } from '../database';
import type { ActionFilteredRange, AnalysisUnitColumn } from '../store';
import { sqliteActions } from './actions';

/**
 * The analytics reads (unit-ordered indexes, JavaScript aggregates) answer exactly what the
 * domain functions and plain SQL answer over the same actions: random actions with ties in
 * time, rows stored out of time order, missing sessions, blank and non-BMP names, filters.
 */
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1);
const PROJECT = '00000000-0000-4000-8000-000000000001';
const OTHER = '00000000-0000-4000-8000-000000000002';
const KINDS = ['page_view', 'screen_view', 'interaction'] as const;
const NAMES = ['Home', 'Product', 'Cart', 'Buy', '', ' \t', 'Zoë', '𝌆 astral', '\uffefBOM-ish'];

type Row = {
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

function generate(): Row[] {
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
    rows.push({
      seq: i + 1,
      project: r() < 0.9 ? PROJECT : OTHER,
      at,
      kind: pick(KINDS),
      name: pick(NAMES),
      user,
      session: r() < 0.1 ? null : `${user}-s${Math.floor(r() * 4)}`,
      environment: pick(['production', 'staging']),
      service: pick(['web', 'ios']),
      release: pick(['r1', 'r2']),
      properties: JSON.stringify(props),
    });
  }
  return rows;
}

let dir: string;
let db: Db;
const rows = generate();
const store = () => sqliteActions(db);

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lookout-action-analytics-'));
  db = openDatabase(dir);
  db.prepare(
    `INSERT INTO organizations (id, slug, name, created_at) VALUES ('o', 'o', 'o', 0)`,
  ).run();
  for (const p of [PROJECT, OTHER])
    db.prepare(
      `INSERT INTO projects (id, organization_id, slug, name, created_at) VALUES (?, 'o', ?, 'p', 0)`,
    ).run(p, p);
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
});

afterAll(() => {
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const RANGE: ActionFilteredRange = {
  projectId: PROJECT,
  from: T0,
  to: T0 + 3 * DAY + 1234,
  environment: null,
  serviceName: null,
  release: null,
};
const FILTERED: ActionFilteredRange[] = [
  RANGE,
  { ...RANGE, environment: 'staging' },
  { ...RANGE, serviceName: 'ios', release: 'r2' },
  { ...RANGE, from: T0 + DAY / 3, to: T0 + DAY },
];

/** The actions of a range and filters in time order, ties in storage order. */
const inRange = (q: ActionFilteredRange) =>
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

const events = (q: ActionFilteredRange, unit: AnalysisUnitColumn): FunnelEvent[] =>
  inRange(q).map((a) => ({
    unit: unit === 'session_id' ? a.session : a.user,
    kind: a.kind,
    name: a.name,
    at: a.at,
  }));

const blank = (name: string) => name.replace(/^[ \t\n\r]+/, '') === '';

describe('analytics reads', () => {
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

  it('answer segments, the overview and properties as plain SQL over the rows does', async () => {
    const plain = (sql: string, q: ActionFilteredRange, before: number[] = []) => {
      const where = ['project_id = ?', 'occurred_at >= ?', 'occurred_at < ?'];
      const args: (string | number)[] = [q.projectId, q.from, q.to];
      for (const [column, value] of [
        ['environment', q.environment],
        ['service_name', q.serviceName],
        ['release', q.release],
      ] as const)
        if (value !== null) {
          where.push(`${column} = ?`);
          args.push(value);
        }
      return db
        .prepare<unknown[], Record<string, unknown>>(sql.replaceAll('$WHERE', where.join(' AND ')))
        .all(...before, ...args);
    };
    for (const q of FILTERED) {
      for (const unit of ['session_id', 'distinct_id'] as const) {
        const all = await store().segment({ ...q, unit, match: null, topLimit: 3 });
        const [totals] = plain(
          `SELECT COUNT(*) AS events, SUM(${unit} IS NOT NULL) AS unitIdentified,
             COUNT(DISTINCT ${unit}) AS units FROM actions WHERE $WHERE`,
          q,
        ) as { events: number; unitIdentified: number; units: number }[];
        expect(all).toEqual({
          all: totals?.events,
          ...totals,
          top: plain(
            `SELECT name, kind, COUNT(*) AS events, COUNT(DISTINCT ${unit}) AS units
             FROM actions WHERE $WHERE GROUP BY name, kind ORDER BY events DESC, name, kind LIMIT 3`,
            q,
          ),
        });
        const match = { kind: 'page_view', name: 'Home' };
        const one = await store().segment({ ...q, unit, match, topLimit: 0 });
        const [matched] = plain(
          `SELECT COUNT(*) AS events, SUM(${unit} IS NOT NULL) AS unitIdentified,
             COUNT(DISTINCT ${unit}) AS units FROM actions
           WHERE $WHERE AND kind = 'page_view' AND name = 'Home'`,
          q,
        ) as { events: number; unitIdentified: number; units: number }[];
        expect(one).toEqual({ all: totals?.events, ...matched, top: [] });
      }

      const overview = await store().overview({
        ...q,
        bucketFrom: q.from - 1234,
        stepMs: 3_600_000,
        topLimit: 4,
      });
      expect(overview).toEqual({
        totals: plain(
          `SELECT COUNT(*) AS events,
             COALESCE(SUM(trim(name, ' ' || char(9, 10, 13)) <> ''), 0) AS named,
             COALESCE(SUM(session_id IS NOT NULL), 0) AS withSession,
             COUNT(DISTINCT distinct_id) AS users, COUNT(DISTINCT session_id) AS sessions
           FROM actions WHERE $WHERE`,
          q,
        )[0],
        buckets: plain(
          `SELECT CAST((occurred_at - ?) / ? AS INTEGER) AS bucket, COUNT(*) AS events
           FROM actions WHERE $WHERE GROUP BY bucket ORDER BY bucket`,
          q,
          [q.from - 1234, 3_600_000],
        ),
        top: plain(
          `SELECT name, kind, COUNT(*) AS events, COUNT(DISTINCT distinct_id) AS users,
             COUNT(DISTINCT session_id) AS sessions
           FROM actions WHERE $WHERE GROUP BY name, kind
           ORDER BY events DESC, name, kind LIMIT 4`,
          q,
        ),
        actionCount: plain(`SELECT 1 FROM actions WHERE $WHERE GROUP BY name, kind`, q).length,
      });

      const props = await store().properties(q);
      expect({
        ...props,
        keys: [...props.keys].sort((a, b) => (a.key + a.type < b.key + b.type ? -1 : 1)),
      }).toEqual({
        ...(plain(
          `SELECT COUNT(*) AS events, COALESCE(SUM(properties <> '{}'), 0) AS withProperties
           FROM actions WHERE $WHERE`,
          q,
        )[0] ?? {}),
        keys: plain(
          `SELECT p.key AS key, p.type AS type, COUNT(*) AS events
           FROM actions, json_each(actions.properties) p WHERE $WHERE GROUP BY p.key, p.type`,
          q,
        ).sort((a, b) =>
          String(a.key) + String(a.type) < String(b.key) + String(b.type) ? -1 : 1,
        ),
      });
    }
  });
});
