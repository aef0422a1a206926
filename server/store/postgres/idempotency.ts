import type { IdempotencyReceipt, IdempotencyStore } from '../store';
import type { PgDb, Sql } from './pg-database';

/**
 * Writes a replay record; call it with the transaction of the create it remembers. A record
 * left for the key (an expired one `get` has not yet forgotten) is replaced, as on SQLite.
 */
export function receiptWriter(sql: Sql): (receipt: IdempotencyReceipt) => Promise<void> {
  return async ({ scope, key, record, at }) => {
    await sql.run(
      `INSERT INTO idempotency_keys (scope, key, request_hash, status, response, created_at)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (scope, key) DO UPDATE SET request_hash = excluded.request_hash,
         status = excluded.status, response = excluded.response, created_at = excluded.created_at`,
      [scope, key, record.requestHash, record.status, record.response, at],
    );
  };
}

export function pgIdempotency(db: PgDb): IdempotencyStore {
  return {
    async get(scope, key, notBefore) {
      // Forget expired replays (they may hold secrets) before answering.
      await db.run('DELETE FROM idempotency_keys WHERE created_at < $1', [notBefore]);
      const r = await db.one<{ request_hash: string; status: number; response: string }>(
        'SELECT request_hash, status, response FROM idempotency_keys WHERE scope = $1 AND key = $2',
        [scope, key],
      );
      return r ? { requestHash: r.request_hash, status: r.status, response: r.response } : null;
    },
  };
}
