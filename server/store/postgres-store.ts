import type { StateStore, Store } from '../core/store/store';
import type { InvestigationsStore } from '../core/store/telemetry/investigations';
import type { OccurrencesStore } from '../core/store/telemetry/occurrences';
import type { ReleasesStore } from '../core/store/telemetry/releases';
import type { VolumeStore } from '../core/store/telemetry/volume';
import type { PgContext } from './postgres/pg-context';
import { sql } from './rows/sql';
import { migratePg, openPgPool, pgDatabase } from './postgres/pg-database';
import { pgOccurrenceHours } from './postgres/occurrence-hours';
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

/**
 * The state tier on PostgreSQL at `url` (`DATABASE_URL`), with the rollups each batch's
 * commit counts beside it (release rows, volume, per-hour issue counts), read the same
 * whichever engine keeps the telemetry rows. Migrates the schema first.
 */
export type PostgresState = StateStore & {
  pg: PgContext;
  releases: ReleasesStore;
  volume: VolumeStore;
  occurrenceHours: Pick<OccurrencesStore, 'hours'>;
  releaseRows: InvestigationsStore['releaseRows'];
  close(): Promise<void>;
};

export async function openPostgresState(url: string): Promise<PostgresState> {
  const db = pgDatabase(openPgPool(url));
  try {
    await migratePg(db);
  } catch (e) {
    await db.close().catch(() => undefined);
    throw e;
  }
  const schema = (await db.one<{ s: string }>(sql`SELECT current_schema() AS s`))?.s ?? 'public';
  const investigations = sqlInvestigations(db, pgDialect);
  return {
    pg: { db, schema },
    accounts: pgAccounts(db),
    credentials: sqlCredentials(db),
    projects: pgProjects(db),
    idempotency: pgIdempotency(db),
    issues: pgIssues(db),
    occurrenceHours: pgOccurrenceHours(db),
    releases: sqlReleases(db, pgDialect),
    releaseRows: (q) => investigations.releaseRows(q),
    volume: sqlVolume(db, pgDialect),
    deployments: pgDeployments(db),
    ownership: pgOwnership(db),
    usage: sqlUsage(db),
    throttle: sqlThrottle(db),
    toolConnections: sqlToolConnections(db),
    support: pgSupport(db),
    alerts: pgAlerts(db),
    close: () => db.close(),
  };
}

/** "PostgreSQL only": state and telemetry on PostgreSQL at `url` (`DATABASE_URL`). */
export async function openPostgresStore(url: string): Promise<Store & { pg: PgContext }> {
  const { occurrenceHours: _hours, releaseRows: _rows, ...state } = await openPostgresState(url);
  const ctx = state.pg;
  const { db } = ctx;
  return {
    ...state,
    ingest: pgTelemetry(ctx),
    logs: pgLogs(ctx),
    occurrences: pgOccurrences(db),
    traces: sqlTraces(db, pgDialect),
    actions: pgActions(ctx),
    metrics: pgMetrics(ctx),
    investigations: sqlInvestigations(db, pgDialect),
  };
}
