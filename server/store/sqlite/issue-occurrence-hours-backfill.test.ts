import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { databaseFile } from './database';
import { migrations } from './migrations';
import { openSqliteState } from '../sqlite-store';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const HOUR = 3_600_000;
const H = 480_000; // an hour number: 2024-10-04T00:00Z

/** A database as the release before the hourly occurrence counts left it, with occurrences. */
function databaseBeforeOccurrenceHours(dir: string): void {
  const db = new Database(databaseFile(dir));
  const before = migrations.findIndex((m) => m.includes('issue_occurrence_hours'));
  for (const sql of migrations.slice(0, before)) db.exec(sql);
  db.pragma(`user_version = ${before}`);
  db.exec(`
    INSERT INTO organizations (id, slug, name, created_at) VALUES ('o1', 'o', 'O', 0);
    INSERT INTO projects (id, organization_id, slug, name, created_at) VALUES ('p1', 'o1', 'p', 'P', 0);
    INSERT INTO issues (id, project_id, fingerprint, occurrence_count, first_seen_at, last_seen_at,
      latest_occurrence_seq) VALUES ('i1', 'p1', 'fa', 3, 0, 0, 3), ('i2', 'p1', 'fb', 1, 0, 0, 4);
  `);
  const insert = db.prepare(`INSERT INTO issue_occurrences (seq, id, project_id, issue_id,
    occurred_at, severity, title, message, attributes, environment, release, service_name,
    breadcrumbs_truncated, sdk_name, sdk_version, received_at)
    VALUES (?, ?, 'p1', ?, ?, 'error', 't', 'm', '{}', 'e', 'r', 's', 0, 'sdk', '1', 0)`);
  insert.run(1, 'o1', 'i1', H * HOUR);
  insert.run(2, 'o2', 'i1', H * HOUR + HOUR - 1);
  insert.run(3, 'o3', 'i1', (H + 2) * HOUR + 5);
  insert.run(4, 'o4', 'i2', H * HOUR + 10);
  db.close();
}

describe('hourly occurrence counts of occurrences stored before the migration', () => {
  it('are filled by the migration, one row per issue and hour', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lookout-hours-'));
    dirs.push(dir);
    databaseBeforeOccurrenceHours(dir);

    const store = openSqliteState(dir);
    try {
      const check = new Database(databaseFile(dir), { readonly: true });
      const rows = check
        .prepare('SELECT issue_id, hour, occurrences FROM issue_occurrence_hours ORDER BY 1, 2')
        .all();
      check.close();
      expect(rows).toEqual([
        { issue_id: 'i1', hour: H, occurrences: 2 },
        { issue_id: 'i1', hour: H + 2, occurrences: 1 },
        { issue_id: 'i2', hour: H, occurrences: 1 },
      ]);
      const read = await store.occurrenceHours.hours({
        projectIds: ['p1'],
        issueIds: ['i1', 'i2', 'nope'],
        fromHour: H + 1,
        toHour: H + 3,
      });
      expect(read.readable.sort()).toEqual(['i1', 'i2']);
      expect(read.hours).toEqual([{ issueId: 'i1', hour: H + 2, occurrences: 1 }]);
    } finally {
      await store.close();
    }
  });
});
