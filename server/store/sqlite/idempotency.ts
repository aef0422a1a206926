import type { Db } from '../database';
import type { IdempotencyReceipt, IdempotencyStore } from '../store';

/** Writes a replay record; call it inside the transaction of the create it remembers. */
export function receiptWriter(db: Db): (receipt: IdempotencyReceipt) => void {
  const insert = db.prepare(
    `INSERT OR REPLACE INTO idempotency_keys (scope, key, request_hash, status, response, created_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  return ({ scope, key, record, at }) => {
    insert.run(scope, key, record.requestHash, record.status, record.response, at);
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
