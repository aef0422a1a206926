import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { migrations } from './migrations';

export type Db = Database.Database;

/** Opens (creating if needed) the service's one SQLite file in WAL mode and migrates it. */
export const databaseFile = (dataDir: string): string => path.join(dataDir, 'lookout.sqlite');

export function openDatabase(dataDir: string): Db {
  fs.mkdirSync(dataDir, { recursive: true });
  const db = new Database(databaseFile(dataDir));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  // The default 2 MB page cache makes every insert into the id and time indexes miss once
  // the tables grow; 128 MB keeps the hot index pages in memory.
  db.pragma('cache_size = -131072');
  db.pragma('temp_store = MEMORY');
  migrate(db);
  return db;
}

export function migrate(db: Db): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  for (let version = current; version < migrations.length; version++) {
    const sql = migrations[version];
    if (sql === undefined) break;
    db.transaction(() => {
      db.exec(sql);
      db.pragma(`user_version = ${version + 1}`);
    })();
  }
}
