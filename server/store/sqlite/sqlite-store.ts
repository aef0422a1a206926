import { databaseFile, openDatabase } from '../database';
import { startBackgroundCheckpoints } from './background-checkpoints';
import type { Store } from '../store';
import { sqliteAccounts } from './accounts';
import { sqliteCredentials } from './credentials';
import { sqliteIdempotency } from './idempotency';
import { sqliteIssues } from './issues';
import { sqliteOwnership } from './ownership';
import { logAttributeIndex } from './log-attribute-index';
import { sqliteLogs } from './logs';
import { sqliteProjects } from './projects';
import { sqliteTelemetry } from './telemetry';
import { sqliteUsage } from './usage';

/** The embedded store: one SQLite file in the data directory. */
export function openSqliteStore(dataDir: string): Store {
  const db = openDatabase(dataDir);
  const stopCheckpoints = startBackgroundCheckpoints(db, databaseFile(dataDir));
  const attributeIndex = logAttributeIndex(db);
  return {
    accounts: sqliteAccounts(db),
    credentials: sqliteCredentials(db),
    projects: sqliteProjects(db),
    idempotency: sqliteIdempotency(db),
    telemetry: sqliteTelemetry(db, attributeIndex),
    logs: sqliteLogs(db, attributeIndex),
    issues: sqliteIssues(db),
    ownership: sqliteOwnership(db),
    usage: sqliteUsage(db),
    close: async () => {
      await stopCheckpoints();
      db.close();
    },
  };
}
