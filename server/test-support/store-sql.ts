import path from 'node:path';
import Database from 'better-sqlite3';
import type { PgContext } from '../store/postgres/pg-context';
import type { Store } from '../core/store/store';
import { SqlFragment, raw } from '../store/rows/sql';

/**
 * Raw SQL on a test service's own store, SQLite file or PostgreSQL schema alike, for tests
 * that look at (or sabotage) what is stored. Write queries with `?` placeholders; on
 * PostgreSQL they become `$1…`.
 */
export type StoreSql = {
  dialect: 'sqlite' | 'postgres';
  rows<R = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<R[]>;
  /** Runs statements without parameters (DDL). */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
};

const pgContextOf = (store: Store): PgContext | null =>
  'pg' in store ? (store as Store & { pg: PgContext }).pg : null;

/** A `?` statement as a fragment: the text around each `?`, and the values in order. */
export const questionMarks = (text: string, params: readonly unknown[] = []): SqlFragment =>
  new SqlFragment(text.split('?'), params);

export function storeSql(svc: { dir: string; deps: { store: Store } }): StoreSql {
  const pg = pgContextOf(svc.deps.store);
  if (pg) {
    return {
      dialect: 'postgres',
      rows: (text, params = []) => pg.db.rows(questionMarks(text, params)),
      exec: async (text) => {
        await pg.db.run(raw(text));
      },
      close: async () => undefined,
    };
  }
  const db = new Database(path.join(svc.dir, 'lookout.sqlite'));
  return {
    dialect: 'sqlite',
    rows: async <R>(sql: string, params: readonly unknown[] = []) =>
      db.prepare(sql).all(...params) as R[],
    exec: async (sql) => {
      db.exec(sql);
    },
    close: async () => {
      db.close();
    },
  };
}

/** Every value of every row of a table, as text. */
export async function tableValues(
  svc: { dir: string; deps: { store: Store } },
  table: string,
): Promise<string[]> {
  const sql = storeSql(svc);
  try {
    const rows = await sql.rows(`SELECT * FROM ${table}`);
    return rows.flatMap((r) => Object.values(r).map((v) => String(v)));
  } finally {
    await sql.close();
  }
}
