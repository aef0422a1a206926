import type { AlertsStore } from '../../../core/store/state/alerts';
import { ReplayTakenError } from '../../../core/store/state/replay-taken';
import type { PgDb } from '../../postgres/pg-database';
import { pgDialect } from '../../postgres/pg-sql';
import { sqlAlerts } from '../sql/alerts';

/** Rolls a transaction back without an error reaching the caller. */
class Abort extends Error {}

export function pgAlerts(db: PgDb): AlertsStore {
  return sqlAlerts(db, pgDialect, async (steps) => {
    try {
      await db.tx(async (tx) => {
        for (const step of steps) {
          if ((await tx.run(step.q)) > 0 || step.ifNone === undefined) continue;
          throw step.ifNone === 'abort' ? new Abort() : new ReplayTakenError();
        }
      });
      return true;
    } catch (err) {
      if (err instanceof Abort) return false;
      throw err;
    }
  });
}
