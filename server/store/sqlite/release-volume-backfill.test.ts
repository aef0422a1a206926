import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseFile, openDatabase } from './database';
import { migrations } from './migrations';
import { startService, type RunningService } from '../../test-support/start-service';
import {
  NATIVE,
  SDK,
  actionItem,
  at,
  ingest,
  issueItem,
  logItem,
  metricItem,
  nativeBody,
  sdkBody,
  sdkEvent,
  spanItem,
} from '../../test-support/telemetry';

const ROLLUPS = [
  'release_rows',
  'release_row_issues',
  'release_row_traces',
  'volume_minutes',
  'volume_hours',
] as const;
const TELEMETRY = [
  'organizations',
  'projects',
  'logs',
  'issues',
  'issue_occurrences',
  'spans',
  'actions',
  'metric_samples',
] as const;

const dump = (db: Database.Database) =>
  Object.fromEntries(
    ROLLUPS.map((t) => [t, db.prepare(`SELECT * FROM ${t} ORDER BY 1, 2, 3, 4, 5`).all()]),
  );

/**
 * Migration 9 rolls up what was stored before it (pure SQL, like migration 7). Its result
 * must equal what ingestion writes as it goes: the same telemetry is ingested, then copied
 * into a database at migration 8 and migrated.
 */
describe('release and volume rollups of telemetry stored before them', () => {
  let svc: RunningService<true>;
  const dirs: string[] = [];

  beforeAll(async () => {
    svc = await startService({ demo: true });
    const key = svc.creds.projects[0]?.ingest_key ?? '';
    const trace = 'e'.repeat(32);
    const first = await ingest(
      svc,
      NATIVE,
      key,
      nativeBody({
        issues: [
          issueItem({ occurred_at: at(0), breadcrumbs: [{ timestamp: at(0), message: 'ü "q"' }] }),
          issueItem({ occurred_at: at(90_000), stack_trace: undefined, attributes: { n: 1.5 } }),
        ],
        logs: [logItem({ occurred_at: at(1000), attributes: { path: '/a/b', ok: true } })],
        trace_spans: [
          spanItem({
            trace_id: trace,
            started_at: at(2000),
            events: [{ name: 'x', timestamp: at(2001) }],
          }),
        ],
        actions: [actionItem({ occurred_at: at(3_700_000) })],
      }),
    );
    expect(first.status, first.text).toBe(200);
    const later = await ingest(
      svc,
      NATIVE,
      key,
      nativeBody({
        service_name: 'web',
        trace_spans: [spanItem({ trace_id: trace, started_at: at(2500), status: 'error' })],
      }),
    );
    expect(later.status).toBe(200);
    const again = await ingest(
      svc,
      NATIVE,
      key,
      nativeBody({
        trace_spans: [spanItem({ trace_id: trace, started_at: at(2600), status: 'error' })],
      }),
    );
    expect(again.status).toBe(200);
    const metric = await ingest(
      svc,
      SDK,
      key,
      sdkBody([sdkEvent('metric', metricItem({ occurred_at: at(5000) }))]),
    );
    expect(metric.status).toBe(200);
  });
  afterAll(async () => {
    await svc.close();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  it('equals what ingestion wrote', () => {
    const live = new Database(databaseFile(svc.dir), { readonly: true });
    const written = dump(live);
    live.close();
    expect((written.release_rows as unknown[]).length).toBe(2);

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lookout-rollup-backfill-'));
    dirs.push(dir);
    const before = migrations.findIndex((m) => m.includes('CREATE TABLE release_rows'));
    const old = new Database(databaseFile(dir));
    old.pragma('foreign_keys = OFF');
    for (const sql of migrations.slice(0, before)) old.exec(sql);
    old.pragma(`user_version = ${before}`);
    old.exec(`ATTACH DATABASE '${databaseFile(svc.dir)}' AS live`);
    for (const t of TELEMETRY) old.exec(`INSERT INTO main.${t} SELECT * FROM live.${t}`);
    old.exec('DETACH DATABASE live');
    old.close();

    const migrated = openDatabase(dir);
    try {
      expect(dump(migrated)).toEqual(written);
    } finally {
      migrated.close();
    }
  });
});
