import { databaseFile, openDatabase } from './sqlite/database';
import { startBackgroundCheckpoints } from './sqlite/background-checkpoints';
import type { Store } from '../core/store/store';
import { sqliteAccounts } from './state/sqlite/accounts';
import { sqliteActions } from './telemetry/sqlite/actions';
import { sqliteDeployments } from './state/sqlite/deployments';
import { sqliteMetrics } from './telemetry/sqlite/metrics';
import { sqliteReleases } from './telemetry/sqlite/releases';
import { sqliteVolume } from './telemetry/sqlite/volume';
import { sqliteCredentials } from './state/sqlite/credentials';
import { sqliteIdempotency } from './state/sqlite/idempotency';
import { sqliteIssues } from './state/sqlite/issues';
import { sqliteOccurrences } from './telemetry/sqlite/occurrences';
import { sqliteInvestigations } from './telemetry/sqlite/investigations';
import { sqliteSupport } from './state/sqlite/support';
import { sqliteOwnership } from './state/sqlite/ownership';
import { logAttributeIndex } from './telemetry/sqlite/log-attribute-index';
import { sqliteLogs } from './telemetry/sqlite/logs';
import { sqliteProjects } from './state/sqlite/projects';
import { sqliteTelemetry } from './telemetry/sqlite/ingest';
import { releaseRollup } from './telemetry/sqlite/release-rollup';
import { traceRollup } from './telemetry/sqlite/trace-parts';
import { sqliteTraces } from './telemetry/sqlite/traces';
import { sqliteUsage } from './state/sqlite/usage';
import { volumeRollup } from './telemetry/sqlite/volume-rollup';

/** The embedded store: one SQLite file in the data directory. */
export function openSqliteStore(dataDir: string): Store {
  const db = openDatabase(dataDir);
  const stopCheckpoints = startBackgroundCheckpoints(db, databaseFile(dataDir));
  const attributeIndex = logAttributeIndex(db);
  const rollup = traceRollup(db);
  return {
    accounts: sqliteAccounts(db),
    credentials: sqliteCredentials(db),
    projects: sqliteProjects(db),
    idempotency: sqliteIdempotency(db),
    ingest: sqliteTelemetry(db, attributeIndex, rollup, releaseRollup(db), volumeRollup(db)),
    logs: sqliteLogs(db, attributeIndex),
    issues: sqliteIssues(db),
    occurrences: sqliteOccurrences(db),
    traces: sqliteTraces(db, rollup),
    releases: sqliteReleases(db),
    actions: sqliteActions(db),
    metrics: sqliteMetrics(db),
    volume: sqliteVolume(db),
    deployments: sqliteDeployments(db),
    ownership: sqliteOwnership(db),
    usage: sqliteUsage(db),
    investigations: sqliteInvestigations(db),
    support: sqliteSupport(db),
    close: async () => {
      await stopCheckpoints();
      db.close();
    },
  };
}
