import { databaseFile, openDatabase, type Db } from './sqlite/database';
import { startBackgroundCheckpoints } from './sqlite/background-checkpoints';
import type { StateStore } from '../core/store/store';
import type { StateRollups } from './clickhouse-state';
import { sqliteAccounts } from './state/sqlite/accounts';
import { sqliteBatchCommit, type SqliteBatchCommit } from './state/sqlite/batch-commit';
import { sqliteDeployments } from './state/sqlite/deployments';
import { sqlCredentials } from './state/sql/credentials';
import { sqliteIdempotency } from './state/sqlite/idempotency';
import { sqliteIssues } from './state/sqlite/issues';
import { sqliteOccurrenceHours } from './state/sqlite/occurrence-hours';
import { sqliteSupport } from './state/sqlite/support';
import { sqliteAlerts } from './state/sqlite/alerts';
import { sqliteOwnership } from './state/sqlite/ownership';
import { sqliteProjects } from './state/sqlite/projects';
import { releaseRollup } from './state/sqlite/release-rollup';
import { volumeRollup } from './state/sqlite/volume-rollup';
import { sqlInvestigations } from './telemetry/sql/investigations';
import { sqlReleases } from './telemetry/sql/releases';
import { sqlVolume } from './telemetry/sql/volume';
import { sqlUsage } from './state/sql/usage';
import { sqlThrottle } from './state/sql/throttle';
import { sqlToolConnections } from './state/sql/tool-connections';
import { sqliteDialect, sqliteRunner } from './sqlite/sqlite-sql';

/**
 * The state tier in one SQLite file of the data directory, with the rollups each batch's
 * commit counts beside it (release rows, volume, per-hour issue counts): small counters kept
 * exact by the same transaction that accepts the batch. SQLite keeps no telemetry rows; they
 * are in ClickHouse (clickhouse-store.ts).
 */
export type SqliteState = StateStore &
  StateRollups & {
    sqlite: Db;
    commitBatch: SqliteBatchCommit;
  };

export function openSqliteState(dataDir: string): SqliteState {
  const db = openDatabase(dataDir);
  const stopCheckpoints = startBackgroundCheckpoints(db, databaseFile(dataDir));
  const sql = sqliteRunner(db);
  const investigations = sqlInvestigations(sql, sqliteDialect);
  return {
    sqlite: db,
    accounts: sqliteAccounts(db),
    credentials: sqlCredentials(sql),
    projects: sqliteProjects(db),
    idempotency: sqliteIdempotency(db),
    commitBatch: sqliteBatchCommit(db, releaseRollup(db), volumeRollup(db)),
    issues: sqliteIssues(db),
    occurrenceHours: sqliteOccurrenceHours(db),
    releases: sqlReleases(sql, sqliteDialect),
    releaseRows: (q) => investigations.releaseRows(q),
    volume: sqlVolume(sql, sqliteDialect),
    deployments: sqliteDeployments(db),
    ownership: sqliteOwnership(db),
    usage: sqlUsage(sql),
    throttle: sqlThrottle(sql),
    toolConnections: sqlToolConnections(sql),
    support: sqliteSupport(db),
    alerts: sqliteAlerts(db),
    close: async () => {
      await stopCheckpoints();
      db.close();
    },
  };
}
