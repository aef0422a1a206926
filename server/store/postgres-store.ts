import type { Store } from '../core/store/store';
import type { PgContext } from './postgres/pg-context';
import { sql } from './rows/sql';
import { migratePg, openPgPool, pgDatabase } from './postgres/pg-database';
import { pgActions } from './telemetry/postgres/actions';
import { pgAccounts } from './state/postgres/accounts';
import { sqlCredentials } from './state/sql/credentials';
import { pgDeployments } from './state/postgres/deployments';
import { pgIdempotency } from './state/postgres/idempotency';
import { sqlInvestigations } from './telemetry/sql/investigations';
import { pgIssues } from './state/postgres/issues';
import { pgOccurrences } from './telemetry/postgres/occurrences';
import { pgLogs } from './telemetry/postgres/logs';
import { pgMetrics } from './telemetry/postgres/metrics';
import { pgOwnership } from './state/postgres/ownership';
import { pgProjects } from './state/postgres/projects';
import { sqlReleases } from './telemetry/sql/releases';
import { pgSupport } from './state/postgres/support';
import { pgAlerts } from './state/postgres/alerts';
import { pgTelemetry } from './telemetry/postgres/ingest';
import { sqlTraces } from './telemetry/sql/traces';
import { sqlUsage } from './state/sql/usage';
import { sqlThrottle } from './state/sql/throttle';
import { sqlToolConnections } from './state/sql/tool-connections';
import { sqlVolume } from './telemetry/sql/volume';
import { pgDialect } from './postgres/pg-sql';

/** The store on PostgreSQL at `url` (`DATABASE_URL`); migrates the schema first. */
export async function openPostgresStore(url: string): Promise<Store & { pg: PgContext }> {
  const db = pgDatabase(openPgPool(url));
  await migratePg(db);
  const schema = (await db.one<{ s: string }>(sql`SELECT current_schema() AS s`))?.s ?? 'public';
  const ctx: PgContext = { db, schema };
  return {
    pg: ctx,
    accounts: pgAccounts(db),
    credentials: sqlCredentials(db),
    projects: pgProjects(db),
    idempotency: pgIdempotency(db),
    ingest: pgTelemetry(ctx),
    logs: pgLogs(ctx),
    issues: pgIssues(db),
    occurrences: pgOccurrences(db),
    traces: sqlTraces(db, pgDialect),
    releases: sqlReleases(db, pgDialect),
    actions: pgActions(ctx),
    metrics: pgMetrics(ctx),
    volume: sqlVolume(db, pgDialect),
    deployments: pgDeployments(db),
    ownership: pgOwnership(db),
    usage: sqlUsage(db),
    throttle: sqlThrottle(db),
    toolConnections: sqlToolConnections(db),
    investigations: sqlInvestigations(db, pgDialect),
    support: pgSupport(db),
    alerts: pgAlerts(db),
    close: () => db.close(),
  };
}
