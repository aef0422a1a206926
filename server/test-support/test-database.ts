import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { forgetPartitions } from '../store/postgres/pg-partitions';

/**
 * Where a test service keeps its data. With `LOOKOUT_TEST_DATABASE_URL` set (CI sets it on
 * the second run of the contract suite), each service gets its own fresh PostgreSQL schema
 * in that database; otherwise null, and the service uses SQLite in its data directory.
 */
export type TestDatabase = {
  url: string | null;
  drop(): Promise<void>;
  /** Another user of the same schema (a second service instance); the last `drop()` drops it. */
  share(): TestDatabase;
};

export const testDatabaseServer = (): string | null =>
  process.env.LOOKOUT_TEST_DATABASE_URL?.trim() || null;

/** A connection URL whose sessions all work in `schema`. */
export function urlWithSchema(base: string, schema: string): string {
  const u = new URL(base);
  u.searchParams.set('options', `-c search_path=${schema}`);
  return u.toString();
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const base = testDatabaseServer();
  if (!base) {
    const none: TestDatabase = { url: null, drop: async () => undefined, share: () => none };
    return none;
  }
  const schema = `lookout_t_${randomBytes(6).toString('hex')}`;
  await withClient(base, (c) => c.query(`CREATE SCHEMA ${schema}`));
  const url = urlWithSchema(base, schema);
  let users = 0;
  const user = (): TestDatabase => {
    users++;
    let dropped = false;
    return {
      url,
      async drop() {
        if (dropped) return;
        dropped = true;
        if (--users > 0) return;
        forgetPartitions(schema);
        await withClient(base, (c) => c.query(`DROP SCHEMA ${schema} CASCADE`));
      },
      share: user,
    };
  };
  return user();
}

async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
