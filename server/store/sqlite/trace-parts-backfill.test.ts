import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { databaseFile } from './database';
import { migrations } from './migrations';
import { openSqliteStore } from '../sqlite-store';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** A database as the release before trace discovery left it: one trace of three spans. */
function databaseBeforeTraceParts(dir: string): void {
  const db = new Database(databaseFile(dir));
  const before = migrations.findIndex((m) => m.includes('CREATE TABLE trace_parts'));
  for (const sql of migrations.slice(0, before)) db.exec(sql);
  db.pragma(`user_version = ${before}`);
  db.exec(`
    INSERT INTO organizations (id, slug, name, created_at) VALUES ('o1', 'o', 'O', 0);
    INSERT INTO projects (id, organization_id, slug, name, created_at) VALUES ('p1', 'o1', 'p', 'P', 0);
  `);
  const insert = db.prepare(`INSERT INTO spans (id, project_id, trace_id, span_id, parent_span_id,
    name, operation, kind, service_name, environment, release, started_at, duration_ms, status,
    status_message, attributes, events, sdk_name, sdk_version, received_at)
    VALUES (?, 'p1', ?, ?, ?, ?, NULL, ?, ?, 'production', 'r1', ?, ?, ?, NULL, ?, '[]', 'sdk', '1', 1)`);
  const trace = '7'.repeat(32);
  // Stored child first: the root must still win.
  insert.run(
    's2',
    trace,
    'b'.repeat(16),
    'a'.repeat(16),
    'GET',
    'server',
    'inventory',
    1010,
    50,
    'error',
    JSON.stringify({ 'http.method': 'GET' }),
  );
  insert.run(
    's1',
    trace,
    'a'.repeat(16),
    null,
    'POST /checkout',
    'server',
    'web',
    1000,
    200,
    'ok',
    '{}',
  );
  insert.run(
    's3',
    trace,
    'c'.repeat(16),
    'a'.repeat(16),
    'SELECT carts',
    'client',
    'web',
    1020,
    300,
    null,
    '{}',
  );
  db.close();
}

describe('trace discovery of spans stored before it existed', () => {
  it('rolls them up when the store opens', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lookout-trace-parts-'));
    dirs.push(dir);
    databaseBeforeTraceParts(dir);
    const store = openSqliteStore(dir);
    try {
      const [row, ...rest] = await store.traces.discover({
        projectIds: ['p1'],
        serviceName: 'inventory',
        release: null,
        environment: null,
        status: 'error',
        since: null,
        minDurationMs: 320,
        after: null,
        limit: 10,
      });
      expect(rest).toEqual([]);
      expect(row).toMatchObject({
        traceId: '7'.repeat(32),
        startedAt: 1000,
        endedAt: 1320,
        spanCount: 3,
        errorSpanCount: 1,
        root: { name: 'POST /checkout', serviceName: 'web' },
        services: ['inventory', 'web'],
        genericNameSpans: 1,
        unmatchedRouteSpans: 1,
      });
    } finally {
      await store.close();
    }
    // Opening again does not count them twice.
    const again = openSqliteStore(dir);
    try {
      const rows = await again.traces.discover({
        projectIds: ['p1'],
        serviceName: null,
        release: null,
        environment: null,
        status: null,
        since: null,
        minDurationMs: null,
        after: null,
        limit: 10,
      });
      expect(rows.map((r) => r.spanCount)).toEqual([3]);
    } finally {
      await again.close();
    }
  });
});
