import { databaseFile, openDatabase } from '../database';
import { startBackgroundCheckpoints } from './background-checkpoints';
import type { Store } from '../store';
import { sqliteAccounts } from './accounts';
import { sqliteActions } from './actions';
import { sqliteDeployments } from './deployments';
import { sqliteMetrics } from './metrics';
import { sqliteReleases } from './releases';
import { sqliteVolume } from './volume';
import { sqliteCredentials } from './credentials';
import { sqliteIdempotency } from './idempotency';
import { sqliteIssues } from './issues';
import { sqliteInvestigations } from './investigations';
import { sqliteSupport } from './support';
import { sqliteOwnership } from './ownership';
import { logAttributeIndex } from './log-attribute-index';
import { sqliteLogs } from './logs';
import { sqliteProjects } from './projects';
import { sqliteTelemetry } from './telemetry';
import { releaseRollup } from './release-rollup';
import { traceRollup } from './trace-parts';
import { sqliteTraces } from './traces';
import { sqliteUsage } from './usage';
import { volumeRollup } from './volume-rollup';

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
    telemetry: sqliteTelemetry(db, attributeIndex, rollup, releaseRollup(db), volumeRollup(db)),
    logs: sqliteLogs(db, attributeIndex),
    issues: sqliteIssues(db),
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
