import type { Db } from '../../sqlite/database';
import { ReplayTakenError } from '../../../core/store/state/replay-taken';
import type { IdempotencyReceipt, IdempotencyStore } from '../../../core/store/state/idempotency';
import { insertReceipt, selectReplay, toReplay, type ReplayDbRow } from '../../rows/idempotency';
import { sql } from '../../rows/sql';
import { firstRow, runStatement } from '../../sqlite/sqlite-sql';

/**
 * Writes a replay record; call it inside the transaction of the create it remembers. The
 * `get` before the create forgot expired records, so a record found here was stored by a
 * concurrent create with the key: ReplayTakenError rolls this create back.
 */
export function receiptWriter(db: Db): (receipt: IdempotencyReceipt) => void {
  return (receipt) => {
    if (runStatement(db, insertReceipt(receipt)) === 0) throw new ReplayTakenError();
  };
}

export function sqliteIdempotency(db: Db): IdempotencyStore {
  return {
    async get(scope, key, notBefore) {
      // Forget expired replays (they may hold secrets) before answering.
      runStatement(db, sql`DELETE FROM idempotency_keys WHERE created_at < ${notBefore}`);
      const r = firstRow<ReplayDbRow>(db, selectReplay(scope, key, notBefore));
      return r ? toReplay(r) : null;
    },
  };
}
