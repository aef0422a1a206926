import type { Db } from '../../sqlite/database';
import { ReplayTakenError } from '../../../core/store/state/replay-taken';
import type { IdempotencyReceipt, IdempotencyStore } from '../../../core/store/state/idempotency';

/**
 * Writes a replay record; call it inside the transaction of the create it remembers. The
 * `get` before the create forgot expired records, so a record found here was stored by a
 * concurrent create with the key: ReplayTakenError rolls this create back.
 */
export function receiptWriter(db: Db): (receipt: IdempotencyReceipt) => void {
  const insert = db.prepare(
    `INSERT INTO idempotency_keys (scope, key, request_hash, status, response, created_at)
     VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (scope, key) DO NOTHING`,
  );
  return ({ scope, key, record, at }) => {
    const { changes } = insert.run(
      scope,
      key,
      record.requestHash,
      record.status,
      record.response,
      at,
    );
    if (changes === 0) throw new ReplayTakenError();
  };
}

export function sqliteIdempotency(db: Db): IdempotencyStore {
  return {
    async get(scope, key, notBefore) {
      // Forget expired replays (they may hold secrets) before answering.
      db.prepare('DELETE FROM idempotency_keys WHERE created_at < ?').run(notBefore);
      const r = db
        .prepare<[string, string], { request_hash: string; status: number; response: string }>(
          'SELECT request_hash, status, response FROM idempotency_keys WHERE scope = ? AND key = ?',
        )
        .get(scope, key);
      return r ? { requestHash: r.request_hash, status: r.status, response: r.response } : null;
    },
  };
}
