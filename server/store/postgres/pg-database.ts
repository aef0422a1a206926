import pg from 'pg';
import { pgMigrations } from './pg-migrations';
import { fromPgRows, toPgParams } from './pg-text';

/** One way to run SQL: the pool, or the client of an open transaction. */
export type Sql = {
  /** Rows of a statement with `$1…` parameters. */
  rows<R>(text: string, params?: readonly unknown[]): Promise<R[]>;
  /** The first row, or null. */
  one<R>(text: string, params?: readonly unknown[]): Promise<R | null>;
  /** Runs a statement; how many rows it touched. */
  run(text: string, params?: readonly unknown[]): Promise<number>;
};

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
function sqlOf(q: { query: pg.Pool['query'] }): Sql {
  return {
    rows: async <R>(text: string, params?: readonly unknown[]) =>
      fromPgRows((await q.query(text, toPgParams(params))).rows as R[]),
    one: async <R>(text: string, params?: readonly unknown[]) =>
      (fromPgRows((await q.query(text, toPgParams(params))).rows as R[])[0] as R | undefined) ??
      null,
    run: async (text: string, params?: readonly unknown[]) =>
      (await q.query(text, toPgParams(params))).rowCount ?? 0,
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
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await client.query(
      'CREATE TABLE IF NOT EXISTS lookout_schema_version (version INTEGER NOT NULL)',
    );
    const row = (
      await client.query<{ version: number }>('SELECT version FROM lookout_schema_version')
    ).rows[0];
    const from = row?.version ?? 0;
    if (!row) await client.query('INSERT INTO lookout_schema_version (version) VALUES (0)');
    for (let v = from; v < pgMigrations.length; v++) {
      await client.query('BEGIN');
      try {
        await client.query(pgMigrations[v] ?? '');
        await client.query('UPDATE lookout_schema_version SET version = $1', [v + 1]);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK');
        throw err;
      }
    }
    return { from, to: Math.max(from, pgMigrations.length) };
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    client.release();
  }
}
