import type { Db } from '../../sqlite/database';
import type { AlertsStore } from '../../../core/store/state/alerts';
import { ReplayTakenError } from '../../../core/store/state/replay-taken';
import { runStatement, sqliteDialect, sqliteRunner } from '../../sqlite/sqlite-sql';
import { sqlAlerts } from '../sql/alerts';

/** Rolls a transaction back without an error reaching the caller. */
class Abort extends Error {}

export function sqliteAlerts(db: Db): AlertsStore {
  return sqlAlerts(sqliteRunner(db), sqliteDialect, async (steps) => {
    try {
      db.transaction(() => {
        for (const step of steps) {
          if (runStatement(db, step.q) > 0 || step.ifNone === undefined) continue;
          throw step.ifNone === 'abort' ? new Abort() : new ReplayTakenError();
        }
      })();
      return true;
    } catch (err) {
      if (err instanceof Abort) return false;
      throw err;
    }
  });
}
