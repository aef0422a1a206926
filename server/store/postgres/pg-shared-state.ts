import type { FeedTickets, StoredTicket } from '../../core/feed-tickets';
import { takeResult, type RateLimiter } from '../../core/rate-limiter';
import type { RateLimitOptions } from '../../core/rate-limiter';
import type { Store } from '../../core/store/store';
import type { PgDb } from './pg-database';
import type { PgContext } from './pg-context';

/** The PostgreSQL context of a store opened by `openPostgresStore`, or null for SQLite. */
export function pgContextOf(store: Store): PgContext | null {
  return 'pg' in store ? (store as Store & { pg: PgContext }).pg : null;
}

type TicketRow = { account_id: string; issued_at: number; expires_at: number };

/** Feed tickets every instance can redeem; `DELETE … RETURNING` spends one exactly once. */
export function pgFeedTickets(db: PgDb): FeedTickets {
  return {
    put: async (hash: string, t: StoredTicket) => {
      await db.run(
        'INSERT INTO feed_tickets (ticket_hash, account_id, issued_at, expires_at) VALUES ($1, $2, $3, $4)',
        [hash, t.accountId, t.issuedAt, t.expiresAt],
      );
    },
    take: async (hash) => {
      const row = await db.one<TicketRow>(
        'DELETE FROM feed_tickets WHERE ticket_hash = $1 RETURNING account_id, issued_at, expires_at',
        [hash],
      );
      return row
        ? { accountId: row.account_id, issuedAt: row.issued_at, expiresAt: row.expires_at }
        : null;
    },
    dropAccount: async (accountId) => {
      await db.run('DELETE FROM feed_tickets WHERE account_id = $1', [accountId]);
    },
    sweep: async (now) => {
      await db.run('DELETE FROM feed_tickets WHERE expires_at <= $1', [now]);
    },
  };
}

/**
 * The ingest token buckets of every instance, one row per key. One upsert per request
 * refills, takes and answers atomically, so concurrent requests at any instance each see
 * the bucket the previous one left (the SET expressions read the row before the update).
 * A clock behind the bucket's (another instance's) refills nothing rather than draining.
 */
const REFILLED = 'LEAST($2::float8, b.tokens + GREATEST(0, $3 - b.at) / 1000.0 * $4::float8)';
const TAKE = `
INSERT INTO rate_buckets AS b (key, tokens, at, taken) VALUES ($1, $2::float8 - 1, $3, true)
ON CONFLICT (key) DO UPDATE SET
  tokens = CASE WHEN ${REFILLED} >= 1 THEN ${REFILLED} - 1 ELSE ${REFILLED} END,
  taken = ${REFILLED} >= 1,
  at = GREATEST(b.at, $3)
RETURNING tokens, taken`;

export function pgRateLimiter(db: PgDb, opts: RateLimitOptions): RateLimiter {
  return {
    take: async (key) => {
      const row = await db.one<{ tokens: number; taken: boolean }>(TAKE, [
        key,
        opts.burst,
        opts.now(),
        opts.perSecond,
      ]);
      if (!row) throw new Error('rate bucket upsert returned no row');
      return takeResult(row.taken, row.tokens, opts.perSecond);
    },
  };
}
