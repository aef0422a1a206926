import { databaseFile, openDatabase, type Db } from './sqlite/database';
import { startBackgroundCheckpoints } from './sqlite/background-checkpoints';
import type { Store } from '../core/store/store';
import { sqliteAccounts } from './state/sqlite/accounts';
import { sqliteActions } from './telemetry/sqlite/actions';
import { sqliteDeployments } from './state/sqlite/deployments';
import { sqliteMetrics } from './telemetry/sqlite/metrics';
import { sqlCredentials } from './state/sql/credentials';
import { sqliteIdempotency } from './state/sqlite/idempotency';
import { sqliteIssues } from './state/sqlite/issues';
import { sqliteOccurrences } from './telemetry/sqlite/occurrences';
import { sqlInvestigations } from './telemetry/sql/investigations';
import { sqliteSupport } from './state/sqlite/support';
import { sqliteAlerts } from './state/sqlite/alerts';
import { sqliteOwnership } from './state/sqlite/ownership';
import { logAttributeIndex } from './telemetry/sqlite/log-attribute-index';
import { sqliteLogs } from './telemetry/sqlite/logs';
import { sqliteProjects } from './state/sqlite/projects';
import { sqliteTelemetry, type SqliteIngest } from './telemetry/sqlite/ingest';
import { releaseRollup } from './telemetry/sqlite/release-rollup';
import { backfillTraceParts, traceRollup } from './telemetry/sqlite/trace-parts';
import { sqlReleases } from './telemetry/sql/releases';
import { sqlTraces } from './telemetry/sql/traces';
import { sqlVolume } from './telemetry/sql/volume';
import { sqlUsage } from './state/sql/usage';
import { sqlThrottle } from './state/sql/throttle';
import { sqlToolConnections } from './state/sql/tool-connections';
import { sqliteDialect, sqliteRunner } from './sqlite/sqlite-sql';
import { volumeRollup } from './telemetry/sqlite/volume-rollup';

/** The embedded store: one SQLite file in the data directory (`sqlite`: the file, for assemblers). */
export function openSqliteStore(dataDir: string): Store & { sqlite: Db; ingest: SqliteIngest } {
  const db = openDatabase(dataDir);
  const stopCheckpoints = startBackgroundCheckpoints(db, databaseFile(dataDir));
  const attributeIndex = logAttributeIndex(db);
  const rollup = traceRollup(db);
  backfillTraceParts(db, rollup);
  const sql = sqliteRunner(db);
  return {
    sqlite: db,
    accounts: sqliteAccounts(db),
    credentials: sqlCredentials(sql),
    projects: sqliteProjects(db),
    idempotency: sqliteIdempotency(db),
    ingest: sqliteTelemetry(db, attributeIndex, rollup, releaseRollup(db), volumeRollup(db)),
    logs: sqliteLogs(db, attributeIndex),
    issues: sqliteIssues(db),
    occurrences: sqliteOccurrences(db),
    traces: sqlTraces(sql, sqliteDialect),
    releases: sqlReleases(sql, sqliteDialect),
    actions: sqliteActions(db),
    metrics: sqliteMetrics(db),
    volume: sqlVolume(sql, sqliteDialect),
    deployments: sqliteDeployments(db),
    ownership: sqliteOwnership(db),
    usage: sqlUsage(sql),
    throttle: sqlThrottle(sql),
    toolConnections: sqlToolConnections(sql),
    investigations: sqlInvestigations(sql, sqliteDialect),
    support: sqliteSupport(db),
    alerts: sqliteAlerts(db),
    close: async () => {
      await stopCheckpoints();
      db.close();
    },
  };
}
