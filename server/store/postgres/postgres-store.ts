import type { Store } from '../store';
import { migratePg, openPgPool, pgDatabase, type PgDb } from './pg-database';
import { notPorted } from './not-ported';

/** What every part of the PostgreSQL store is built from. */
export type PgContext = {
  db: PgDb;
  /** The schema this store works in (partition names are cached per schema). */
  schema: string;
};

/** The store on PostgreSQL at `url` (`DATABASE_URL`); migrates the schema first. */
export async function openPostgresStore(url: string): Promise<Store & { pg: PgContext }> {
  const db = pgDatabase(openPgPool(url));
  await migratePg(db);
  const schema = (await db.one<{ s: string }>('SELECT current_schema() AS s'))?.s ?? 'public';
  const ctx: PgContext = { db, schema };
  void ctx;
  return {
    pg: ctx,
    accounts: notPorted('accounts'),
    credentials: notPorted('credentials'),
    projects: notPorted('projects'),
    idempotency: notPorted('idempotency'),
    telemetry: notPorted('telemetry'),
    logs: notPorted('logs'),
    issues: notPorted('issues'),
    traces: notPorted('traces'),
    releases: notPorted('releases'),
    actions: notPorted('actions'),
    metrics: notPorted('metrics'),
    volume: notPorted('volume'),
    deployments: notPorted('deployments'),
    ownership: notPorted('ownership'),
    usage: notPorted('usage'),
    investigations: notPorted('investigations'),
    support: notPorted('support'),
    close: () => db.close(),
  };
}
