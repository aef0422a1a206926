import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DAY,
  FILTERED,
  itAnswersAsTheDomainFunctions,
  itAnswersAsTheSqliteStore,
  openDatabaseWithRows,
  RANGE,
  rows,
  T0,
} from '../../../test-support/action-analytics-cases';
import { computeFunnel } from '../../../domain/funnel';
import { rankPaths } from '../../../domain/paths';
import { dropTestTelemetry, processEnginePath } from '../../../test-support/test-clickhouse';
import type { TelemetryConfig } from '../../../core/config';
import type { Db } from '../../sqlite/database';
import { jsonEachRow } from './ch-sql';
import { clickhouseActionAnalytics } from './action-analytics';
import { openClickHouse, type ChDb } from './clickhouse-db';
import { migrateClickHouse } from './clickhouse-migrations';
import { clickhouseActions } from './actions';

/**
 * The ClickHouse analytics reads answer what the domain functions answer, and what the SQLite
 * store (checked against plain SQL in its own test) answers, over the same random actions:
 * ties in time (kept in arrival order, `seq`), NUL and non-BMP names, properties with a lone
 * surrogate's escape. On the engine in this process (or CLICKHOUSE_URL), a database of its own.
 */
describe('analytics reads on ClickHouse', () => {
  let telemetry: Extract<TelemetryConfig, { engine: 'clickhouse' }>;
  let ch: ChDb;
  let dir: string;
  let sqlite: Db;
  const store = () => clickhouseActions(ch);

  beforeAll(async () => {
    telemetry = {
      engine: 'clickhouse',
      url: process.env.CLICKHOUSE_URL?.trim() || null,
      database: `lookout_aa_${randomBytes(6).toString('hex')}`,
      embeddedPath: processEnginePath(),
    };
    ch = await openClickHouse(telemetry);
    await migrateClickHouse(ch);
    // Inserted in generation order: arrival order (seq) is not time order.
    await ch.insert(
      'actions',
      jsonEachRow(
        rows.map((a) => ({
          project_id: a.project,
          occurred_at: a.at,
          id: `id-${String(a.seq)}`,
          name: a.name,
          kind: a.kind,
          distinct_id: a.user,
          session_id: a.session,
          seq: a.seq,
          properties: a.properties,
          environment: a.environment,
          release: a.release,
          service_name: a.service,
          trace_id: null,
          span_id: null,
          sdk_name: 'sdk',
          sdk_version: '1',
          received_at: 0,
          batch_id: '00000000-0000-4000-8000-000000000000',
          retention_days: 30,
        })),
      ),
      'action-analytics-rows',
    );
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lookout-ch-action-analytics-'));
    sqlite = openDatabaseWithRows(dir);
  });

  afterAll(async () => {
    await ch.close();
    await dropTestTelemetry(telemetry);
    sqlite.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  itAnswersAsTheDomainFunctions(store);

  it('answer the same paths when there are more (kind, name) pairs than codes', async () => {
    // Paths read actions by a number of their pair; past the numbers they read them by name.
    const byName = clickhouseActionAnalytics(ch, 0);
    for (const q of FILTERED)
      for (const start of [
        null,
        { kind: 'interaction', eventName: 'Cart' },
        { kind: 'page_view', eventName: 'Nowhere' },
      ] as const) {
        const query = { ...q, unit: 'session_id' as const, start, depth: 3 };
        const got = await byName.paths(query);
        const want = await store().paths(query);
        expect({ ...got, paths: rankPaths(got.paths) }).toEqual({
          ...want,
          paths: rankPaths(want.paths),
        });
      }
  });

  it('enter a funnel once, at the first entry, as computeFunnel does (not as windowFunnel)', async () => {
    // Hand-made units: a step at the instant of the previous one, a second try after the
    // window (windowFunnel would count its later chain), a repeated step met by one action.
    const EDGE = '00000000-0000-4000-8000-0000000000ed';
    const act = (unit: string, name: string, at: number) => ({ unit, kind: 'page_view', name, at });
    const events = [
      act('same-instant', 'A', T0),
      act('same-instant', 'B', T0),
      act('same-instant', 'B', T0 + 1),
      act('retry', 'A', T0),
      act('retry', 'A', T0 + DAY),
      act('retry', 'B', T0 + DAY + 1),
      act('repeat', 'A', T0 + 5),
      act('repeat', 'B', T0 + 6),
      act('repeat', 'A', T0 + 6),
      act('repeat', 'A', T0 + 7),
      act('late', 'B', T0),
      act('late', 'A', T0 + 1),
      act('late', 'B', T0 + 1000),
    ];
    await ch.insert(
      'actions',
      jsonEachRow(
        events.map((e, i) => ({
          project_id: EDGE,
          occurred_at: e.at,
          id: `edge-${String(i)}`,
          name: e.name,
          kind: e.kind,
          distinct_id: e.unit,
          session_id: e.unit,
          seq: i,
          properties: '{}',
          received_at: 0,
          batch_id: '00000000-0000-4000-8000-000000000000',
          retention_days: 30,
        })),
      ),
      'action-analytics-edge',
    );
    const step = (eventName: string) => ({ kind: 'page_view' as const, eventName });
    for (const steps of [
      [step('A'), step('B')],
      [step('A'), step('B'), step('A')],
      [step('A'), step('A'), step('A')],
    ])
      for (const windowMs of [1, 1000, 2 * DAY]) {
        const q = { ...RANGE, projectId: EDGE, unit: 'session_id' as const, steps, windowMs };
        const got = await store().funnel(q);
        expect(got.stepUnits).toEqual(computeFunnel(steps, windowMs, events).stepUnits);
      }
  });

  it('count distinct units of more actions than one bitmask holds', async () => {
    // 150 actions, each done by 1 to 3 users (and sessions): three masks of 64 per unit.
    const MANY = '00000000-0000-4000-8000-0000000000aa';
    const rows: object[] = [];
    for (let a = 0; a < 150; a++)
      for (let u = 0; u <= a % 3; u++)
        for (let k = 0; k < 1 + (a % 2); k++)
          rows.push({
            project_id: MANY,
            occurred_at: T0 + a * 1000 + u,
            id: `many-${String(a)}-${String(u)}-${String(k)}`,
            name: `action ${String(a).padStart(3, '0')}`,
            kind: 'interaction',
            distinct_id: `u${String(u)}`,
            session_id: u === 2 ? null : `s${String(u)}`,
            seq: rows.length,
            properties: '{}',
            received_at: 0,
            batch_id: '00000000-0000-4000-8000-000000000000',
            retention_days: 30,
          });
    await ch.insert('actions', jsonEachRow(rows), 'action-analytics-many');
    const range = { ...RANGE, projectId: MANY };
    const overview = await store().overview({
      ...range,
      bucketFrom: range.from,
      stepMs: DAY,
      topLimit: 150,
    });
    expect(overview.actionCount).toBe(150);
    expect(overview.totals).toMatchObject({ events: rows.length, users: 3, sessions: 2 });
    for (const t of overview.top) {
      const a = Number(t.name.slice(7));
      expect(t, t.name).toEqual({
        name: t.name,
        kind: 'interaction',
        events: (1 + (a % 3)) * (1 + (a % 2)),
        users: 1 + (a % 3),
        sessions: Math.min(2, 1 + (a % 3)),
      });
    }
    const segment = await store().segment({
      ...range,
      unit: 'session_id',
      match: null,
      topLimit: 150,
    });
    expect(segment.top.map((t) => t.units)).toEqual(overview.top.map((t) => t.sessions));
  });

  it('rank the top actions of a kind outside the three as well', async () => {
    // Top actions are counted per name and kind apart for the three kinds ingest takes;
    // a store holding another kind (none is written today) is read by (name, kind) instead.
    const ODD = '00000000-0000-4000-8000-0000000000cc';
    const acts = [
      ['legacy', 'Home', 's1'],
      ['legacy', 'Home', 's2'],
      ['legacy', 'Home', 's2'],
      ['page_view', 'Home', 's1'],
      ['interaction', 'Buy', 's1'],
    ] as const;
    await ch.insert(
      'actions',
      jsonEachRow(
        acts.map(([kind, name, session], i) => ({
          project_id: ODD,
          occurred_at: T0 + i,
          id: `odd-${String(i)}`,
          name,
          kind,
          distinct_id: session,
          session_id: session,
          seq: i,
          properties: '{}',
          received_at: 0,
          batch_id: '00000000-0000-4000-8000-000000000000',
          retention_days: 30,
        })),
      ),
      'action-analytics-odd-kind',
    );
    const range = { ...RANGE, projectId: ODD };
    const overview = await store().overview({
      ...range,
      bucketFrom: range.from,
      stepMs: DAY,
      topLimit: 10,
    });
    expect(overview.actionCount).toBe(3);
    expect(overview.top).toEqual([
      { name: 'Home', kind: 'legacy', events: 3, users: 2, sessions: 2 },
      { name: 'Buy', kind: 'interaction', events: 1, users: 1, sessions: 1 },
      { name: 'Home', kind: 'page_view', events: 1, users: 1, sessions: 1 },
    ]);
    const segment = await store().segment({
      ...range,
      unit: 'session_id',
      match: null,
      topLimit: 2,
    });
    expect(segment.top).toEqual([
      { name: 'Home', kind: 'legacy', events: 3, units: 2 },
      { name: 'Buy', kind: 'interaction', events: 1, units: 1 },
    ]);
  });

  itAnswersAsTheSqliteStore(store, () => sqlite, ['k\u0000', 'odd']);
});
