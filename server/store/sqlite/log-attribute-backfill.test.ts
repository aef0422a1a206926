import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { parseAttributeFilters } from '../../domain/read-rules/attribute-filters';
import { databaseFile } from './database';
import { migrations } from './migrations';
import { openSqliteStore } from '../sqlite-store';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const HOUR = 3_600_000;

/** A database as the release before the attribute index left it, holding three logs. */
function databaseBeforeAttributeIndex(dir: string): void {
  const db = new Database(databaseFile(dir));
  const before = migrations.findIndex((m) => m.includes('log_attributes'));
  for (const sql of migrations.slice(0, before)) db.exec(sql);
  db.pragma(`user_version = ${before}`);
  const insert = db.prepare(`INSERT INTO logs (id, project_id, occurred_at, severity, source,
    message, attributes, environment, release, service_name, trace_id, span_id, sdk_name,
    sdk_version, bytes, received_at, triage_key)
    VALUES (?, 'p1', ?, ?, 'app', 'm', ?, 'production', 'r', 'api', NULL, NULL, 'sdk', '1', 1, 1, 'k')`);
  db.exec(`
    INSERT INTO organizations (id, slug, name, created_at) VALUES ('o1', 'o', 'O', 0);
    INSERT INTO projects (id, organization_id, slug, name, created_at) VALUES ('p1', 'o1', 'p', 'P', 0);
  `);
  insert.run('l1', 10 * HOUR, 'info', JSON.stringify({ http: { status: 200 } }));
  insert.run('l2', 11 * HOUR, 'error', JSON.stringify({ http: { status: 503 }, tags: ['a'] }));
  insert.run('l3', 12 * HOUR, 'error', JSON.stringify({ tags: ['b'] }));
  db.close();
}

describe('the attribute index of logs stored before it existed', () => {
  it('is built when the store opens: catalog, coverage and filters see old logs', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lookout-attr-index-'));
    dirs.push(dir);
    databaseBeforeAttributeIndex(dir);

    const store = openSqliteStore(dir);
    try {
      const catalog = await store.logs.catalog({
        projectIds: ['p1'],
        since: 0,
        severity: null,
        type: null,
        search: null,
        after: null,
        limit: 100,
      });
      expect(catalog.attributes).toEqual([
        { path: '/http/status', type: 'number', observedCount: 2, lastSeenAt: 11 * HOUR },
      ]);
      expect(catalog.coverage).toMatchObject({
        total_logs: 3,
        indexed_logs: 1,
        partially_indexed_logs: 1,
        unindexed_logs: 1,
      });
      const matched = await store.logs.list({
        projectIds: ['p1'],
        severity: null,
        search: null,
        traceId: null,
        serviceName: null,
        release: null,
        environment: null,
        status: 'all',
        attributeFilters: parseAttributeFilters(
          JSON.stringify([{ path: '/http/status', type: 'number', operator: 'gte', value: 500 }]),
        ),
        since: null,
        until: null,
        after: null,
        limit: 10,
      });
      expect(matched.map((l) => l.id)).toEqual(['l2']);
    } finally {
      await store.close();
    }
  });
});
