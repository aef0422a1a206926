import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { logTriageKey } from '../../domain/log-triage-key';
import { databaseFile } from './database';
import { migrations } from './migrations';
import { openSqliteStore } from '../sqlite-store';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** A database as the release before log triage rules left it, holding one log. */
function databaseBeforeTriageKeys(dir: string): void {
  const db = new Database(databaseFile(dir));
  const before = migrations.findIndex((m) => m.includes('log_triage_rules'));
  for (const sql of migrations.slice(0, before)) db.exec(sql);
  db.pragma(`user_version = ${before}`);
  db.exec(`
    INSERT INTO organizations (id, slug, name, created_at) VALUES ('o1', 'o', 'O', 0);
    INSERT INTO projects (id, organization_id, slug, name, created_at) VALUES ('p1', 'o1', 'p', 'P', 0);
    INSERT INTO logs (id, project_id, occurred_at, severity, source, message, attributes,
      environment, release, service_name, trace_id, span_id, sdk_name, sdk_version, bytes, received_at)
    VALUES ('l1', 'p1', 1, 'warning', 'app', 'order 17 failed', '{}', 'production', 'r', 'api',
      NULL, NULL, 'sdk', '1', 15, 1);
  `);
  db.close();
}

describe('log triage keys of logs stored before the migration', () => {
  it('are filled when the store opens, so rules match old logs too', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lookout-triage-'));
    dirs.push(dir);
    databaseBeforeTriageKeys(dir);

    const store = openSqliteStore(dir);
    try {
      const check = new Database(databaseFile(dir), { readonly: true });
      const row = check.prepare('SELECT triage_key FROM logs WHERE id = ?').get('l1') as {
        triage_key: string | null;
      };
      check.close();
      expect(row.triage_key).toBe(logTriageKey('app', 'api', 'order 17 failed'));
      expect(row.triage_key).toBe(logTriageKey('app', 'api', 'order 99 failed'));
    } finally {
      await store.close();
    }
  });
});
