import { createTestDatabase, type TestDatabase } from './test-database';
import { migratePg, openPgPool, pgDatabase, type PgDb } from '../store/postgres/pg-database';
import { sql } from '../store/rows/sql';

/**
 * A fresh migrated schema on LOOKOUT_TEST_DATABASE_URL, and pools on it as separate service
 * instances would have. Only for tests that skip without PostgreSQL.
 */
export async function openTestSchema(): Promise<{
  url: string;
  schema: string;
  /** A new pool on the schema (one per simulated instance). */
  instance(): PgDb;
  close(): Promise<void>;
}> {
  const database: TestDatabase = await createTestDatabase();
  const url = database.url;
  if (!url) throw new Error('LOOKOUT_TEST_DATABASE_URL is not set');
  const pools: PgDb[] = [];
  const instance = () => {
    const db = pgDatabase(openPgPool(url, 4));
    pools.push(db);
    return db;
  };
  const first = instance();
  await migratePg(first);
  const schema = (await first.one<{ s: string }>(sql`SELECT current_schema() AS s`))?.s ?? '';
  return {
    url,
    schema,
    instance,
    async close() {
      await Promise.all(pools.map((p) => p.close()));
      await database.drop();
    },
  };
}
