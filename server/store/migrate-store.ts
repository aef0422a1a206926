import fs from 'node:fs';
import Database from 'better-sqlite3';
import type { ServiceConfig } from '../core/config';
import { databaseFile, openDatabase } from './sqlite/database';
import { migratePg, openPgPool, pgDatabase } from './postgres/pg-database';

/**
 * `npm run service -- migrate`: brings the configured store (PostgreSQL with DATABASE_URL,
 * else the SQLite file in the data directory) to the newest schema; the versions before
 * and after. Instances migrate on start too; this runs it on its own, e.g. before a deploy.
 */
export async function migrateStore(
  config: Pick<ServiceConfig, 'dataDir' | 'databaseUrl'>,
): Promise<{ store: 'postgres' | 'sqlite'; from: number; to: number }> {
  if (config.databaseUrl) {
    const db = pgDatabase(openPgPool(config.databaseUrl, 1));
    try {
      return { store: 'postgres', ...(await migratePg(db)) };
    } finally {
      await db.close();
    }
  }
  const file = databaseFile(config.dataDir);
  let from = 0;
  if (fs.existsSync(file)) {
    const probe = new Database(file, { readonly: true });
    from = probe.pragma('user_version', { simple: true }) as number;
    probe.close();
  }
  const db = openDatabase(config.dataDir);
  const to = db.pragma('user_version', { simple: true }) as number;
  db.close();
  return { store: 'sqlite', from, to };
}
