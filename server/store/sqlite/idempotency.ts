import type { Db } from '../database';
import type { IdempotencyStore } from '../store';

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
    async put(scope, key, rec, at) {
      db.prepare(
        `INSERT OR REPLACE INTO idempotency_keys (scope, key, request_hash, status, response, created_at)
         VALUES (?, ?, ?, ?, ?, ?)`,
      ).run(scope, key, rec.requestHash, rec.status, rec.response, at);
    },
  };
}
