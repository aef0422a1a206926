import type { IdempotencyReceipt, IdempotencyRecord } from '../../core/store/state/idempotency';
import { sql, type SqlFragment } from './sql';

/** Stores a replay record unless the key has one (then it touches no row). */
export const insertReceipt = ({ scope, key, record, at }: IdempotencyReceipt): SqlFragment =>
  sql`INSERT INTO idempotency_keys (scope, key, request_hash, status, response, created_at)
    VALUES (${scope}, ${key}, ${record.requestHash}, ${record.status}, ${record.response}, ${at})
    ON CONFLICT (scope, key) DO NOTHING`;

export type ReplayDbRow = { request_hash: string; status: number; response: string };

/** The record stored for the key after `notBefore`. */
export const selectReplay = (scope: string, key: string, notBefore: number): SqlFragment =>
  sql`SELECT request_hash, status, response FROM idempotency_keys
    WHERE scope = ${scope} AND key = ${key} AND created_at >= ${notBefore}`;

export const toReplay = (r: ReplayDbRow): IdempotencyRecord => ({
  requestHash: r.request_hash,
  status: r.status,
  response: r.response,
});
