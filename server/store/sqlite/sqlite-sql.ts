import type Database from 'better-sqlite3';
import type { Db } from './database';
import {
  join,
  raw,
  sql,
  sqliteStatement,
  type SqlDialect,
  type SqlFragment,
  type SqlRunner,
} from '../rows/sql';

/** `?, ?, …`: one placeholder per value of an IN list. */
export const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(', ');

/** SQLite's side of the statements both engines share. */
export const sqliteDialect: SqlDialect = {
  // One placeholder per value.
  anyOf: (column, values) =>
    sql`${raw(column)} IN (${join(
      values.map((v) => sql`${v}`),
      ', ',
    )})`,
  typed: (value) => sql`${value}`,
  quotient: (dividend, divisor) => sql`CAST((${dividend}) / (${divisor}) AS INTEGER)`,
};

const MAX_CACHED = 500;
const caches = new WeakMap<Db, Map<string, Database.Statement<unknown[], unknown>>>();

/**
 * The statement for this text, prepared once per database: a fragment's text is the same on
 * every call (only its values change) unless its conditions do. Bounded, oldest out first.
 */
function prepared<R>(db: Db, text: string): Database.Statement<unknown[], R> {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  let statement = cache.get(text);
  if (!statement) {
    statement = db.prepare<unknown[], unknown>(text);
    if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value ?? '');
    cache.set(text, statement);
  }
  return statement as Database.Statement<unknown[], R>;
}

/** Every row of a statement built with `sql`…``. */
export function allRows<R>(db: Db, q: SqlFragment): R[] {
  const { text, values } = sqliteStatement(q);
  return prepared<R>(db, text).all(...values);
}

/** The first row of such a statement, or undefined. */
export function firstRow<R>(db: Db, q: SqlFragment): R | undefined {
  const { text, values } = sqliteStatement(q);
  return prepared<R>(db, text).get(...values);
}

/** Runs such a statement; how many rows it touched. */
export function runStatement(db: Db, q: SqlFragment): number {
  const { text, values } = sqliteStatement(q);
  return prepared(db, text).run(...values).changes;
}

/** The database as a `SqlRunner`, for what both engines answer alike (it answers at once). */
export const sqliteRunner = (db: Db): SqlRunner => ({
  rows: async <R>(q: SqlFragment) => allRows<R>(db, q),
  one: async <R>(q: SqlFragment) => firstRow<R>(db, q) ?? null,
  run: async (q: SqlFragment) => runStatement(db, q),
});
