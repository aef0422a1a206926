import type { PgDb } from './pg-database';

/** What every part of the PostgreSQL store is built from. */
export type PgContext = {
  db: PgDb;
  /** The schema this store works in (partition names are cached per schema). */
  schema: string;
};
