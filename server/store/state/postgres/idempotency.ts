import { ReplayTakenError } from '../../../core/store/state/replay-taken';
import type { IdempotencyReceipt, IdempotencyStore } from '../../../core/store/state/idempotency';
import { insertReceipt, selectReplay, toReplay, type ReplayDbRow } from '../../rows/idempotency';
import type { PgDb, Sql } from '../../postgres/pg-database';
import { sql } from '../../rows/sql';

/**
 * Writes a replay record; call it with the transaction of the create it remembers. The
 * `get` before the create forgot expired records, so a record found here was stored by a
 * concurrent create with the key (on another instance; the unique key makes this insert
 * wait for it): ReplayTakenError then rolls this create back.
 */
export function receiptWriter(tx: Sql): (receipt: IdempotencyReceipt) => Promise<void> {
  return async (receipt) => {
    if ((await tx.run(insertReceipt(receipt))) === 0) throw new ReplayTakenError();
  };
}

export function pgIdempotency(db: PgDb): IdempotencyStore {
  return {
    async get(scope, key, notBefore) {
      // Forget expired replays (they may hold secrets) before answering. Rows another
      // instance is deleting are skipped, so concurrent gets neither wait nor deadlock.
      await db.run(sql`DELETE FROM idempotency_keys WHERE (scope, key) IN (
        SELECT scope, key FROM idempotency_keys WHERE created_at < ${notBefore}
        FOR UPDATE SKIP LOCKED)`);
      const r = await db.one<ReplayDbRow>(selectReplay(scope, key, notBefore));
      return r ? toReplay(r) : null;
    },
  };
}
