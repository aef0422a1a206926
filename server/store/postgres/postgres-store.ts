import type { Store } from '../store';
import { migratePg, openPgPool, pgDatabase, type PgDb } from './pg-database';
import { pgActions } from './actions';
import { pgAccounts } from './accounts';
import { pgCredentials } from './credentials';
import { pgDeployments } from './deployments';
import { pgIdempotency } from './idempotency';
import { pgInvestigations } from './investigations';
import { pgIssues } from './issues';
import { pgLogs } from './logs';
import { pgMetrics } from './metrics';
import { pgOwnership } from './ownership';
import { pgProjects } from './projects';
import { pgReleases } from './releases';
import { pgSupport } from './support';
import { pgTelemetry } from './telemetry';
import { pgTraces } from './traces';
import { pgUsage } from './usage';
import { pgVolume } from './volume';

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
    accounts: pgAccounts(db),
    credentials: pgCredentials(db),
    projects: pgProjects(db),
    idempotency: pgIdempotency(db),
    telemetry: pgTelemetry(ctx),
    logs: pgLogs(ctx),
    issues: pgIssues(db),
    traces: pgTraces(db),
    releases: pgReleases(ctx),
    actions: pgActions(ctx),
    metrics: pgMetrics(ctx),
    volume: pgVolume(ctx),
    deployments: pgDeployments(db),
    ownership: pgOwnership(db),
    usage: pgUsage(db),
    investigations: pgInvestigations(db),
    support: pgSupport(db),
    close: () => db.close(),
  };
}
