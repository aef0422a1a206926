import pg from 'pg';
import { pgStatement, sql, type SqlFragment, type SqlRunner } from '../rows/sql';
import { pgMigrations } from './pg-migrations';
import { fromPgRows, toPgParams } from './pg-text';

/** One way to run SQL: the pool, or the client of an open transaction. */
export type Sql = SqlRunner;

export type PgDb = Sql & {
  pool: pg.Pool;
  /**
   * Runs `fn` in one transaction, retried from the start on a deadlock or serialization
   * failure (so `fn` must only touch the database until it returns).
   */
  tx<T>(fn: (sql: Sql) => Promise<T>): Promise<T>;
  close(): Promise<void>;
};

// BIGINT (epoch milliseconds, counts) and NUMERIC come back as numbers, as from SQLite;
// every value the service stores fits in 2^53.
const INT8 = 20;
const NUMERIC = 1700;
const types = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === INT8 || oid === NUMERIC
      ? (v: string) => Number(v)
      : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

const RETRYABLE = new Set(['40P01', '40001']);

// Strings cross in escaped form: text cannot hold U+0000 (pg-text.ts).
function sqlOf(client: { query: pg.Pool['query'] }): Sql {
  const query = (q: SqlFragment) => {
    const { text, values } = pgStatement(q);
    return client.query(text, toPgParams(values));
  };
  return {
    rows: async <R>(q: SqlFragment) => fromPgRows((await query(q)).rows as R[]),
    one: async <R>(q: SqlFragment) =>
      (fromPgRows((await query(q)).rows as R[])[0] as R | undefined) ?? null,
    run: async (q: SqlFragment) => (await query(q)).rowCount ?? 0,
  };
}

/** Opens a pool on `DATABASE_URL` (a `?options=-c search_path=…` in it picks the schema). */
export function openPgPool(url: string, max = 10): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max, types });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  return pool;
}

export function pgDatabase(pool: pg.Pool): PgDb {
  return {
    ...sqlOf(pool),
    pool,
    async tx<T>(fn: (sql: Sql) => Promise<T>): Promise<T> {
      for (let attempt = 1; ; attempt++) {
        const client = await pool.connect();
        try {
          await client.query('BEGIN');
          const result = await fn(sqlOf(client));
          await client.query('COMMIT');
          client.release();
          return result;
        } catch (err) {
          await client.query('ROLLBACK').catch(() => undefined);
          client.release();
          const code = (err as { code?: string }).code;
          if (code && RETRYABLE.has(code) && attempt < 5) continue;
          throw err;
        }
      }
    },
    close: () => pool.end(),
  };
}

const MIGRATION_LOCK = 7_301_942; // any constant shared by every instance

/**
 * Brings the schema to the newest version. Instances starting together take turns on an
 * advisory lock, so each migration runs once.
 */
export async function migratePg(db: PgDb): Promise<{ from: number; to: number }> {
  const client = await db.pool.connect();
  const session = sqlOf(client);
  try {
    await session.run(sql`SELECT pg_advisory_lock(${MIGRATION_LOCK})`);
    await session.run(
      sql`CREATE TABLE IF NOT EXISTS lookout_schema_version (version INTEGER NOT NULL)`,
    );
    const row = await session.one<{ version: number }>(
      sql`SELECT version FROM lookout_schema_version`,
    );
    const from = row?.version ?? 0;
    if (!row) await session.run(sql`INSERT INTO lookout_schema_version (version) VALUES (0)`);
    for (let v = from; v < pgMigrations.length; v++) {
      await client.query('BEGIN');
      try {
        // A migration is several statements: sent as one text, without parameters.
        await client.query(pgMigrations[v] ?? '');
        await session.run(sql`UPDATE lookout_schema_version SET version = ${v + 1}`);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK');
        throw err;
      }
    }
    return { from, to: Math.max(from, pgMigrations.length) };
  } finally {
    await session.run(sql`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`).catch(() => undefined);
    client.release();
  }
}
