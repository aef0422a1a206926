import type { FeedTickets, StoredTicket } from '../../core/feed-tickets';
import { takeResult, type RateLimiter } from '../../core/rate-limiter';
import type { RateLimitOptions } from '../../core/rate-limiter';
import type { Store } from '../../core/store/store';
import type { PgDb } from './pg-database';
import type { PgContext } from './pg-context';
import { sql } from '../rows/sql';

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
        sql`INSERT INTO feed_tickets (ticket_hash, account_id, issued_at,
        expires_at) VALUES (${hash}, ${t.accountId}, ${t.issuedAt}, ${t.expiresAt})`,
      );
    },
    take: async (hash) => {
      const row = await db.one<TicketRow>(
        sql`DELETE FROM feed_tickets WHERE ticket_hash = ${hash} RETURNING account_id, issued_at, expires_at`,
      );
      return row
        ? { accountId: row.account_id, issuedAt: row.issued_at, expiresAt: row.expires_at }
        : null;
    },
    dropAccount: async (accountId) => {
      await db.run(sql`DELETE FROM feed_tickets WHERE account_id = ${accountId}`);
    },
    sweep: async (now) => {
      await db.run(sql`DELETE FROM feed_tickets WHERE expires_at <= ${now}`);
    },
  };
}

/**
 * The ingest token buckets of every instance, one row per key. One upsert per request
 * refills, takes and answers atomically, so concurrent requests at any instance each see
 * the bucket the previous one left (the SET expressions read the row before the update).
 * A clock behind the bucket's (another instance's) refills nothing rather than draining.
 */
function takeStatement(key: string, burst: number, now: number, perSecond: number) {
  const refilled = sql`LEAST(${burst}::float8, b.tokens + GREATEST(0,
  ${now} - b.at) / 1000.0 * ${perSecond}::float8)`;
  return sql`INSERT INTO rate_buckets AS b (key, tokens, at, taken)
    VALUES (${key}, ${burst}::float8 - 1, ${now}, true)
    ON CONFLICT (key) DO UPDATE SET
      tokens = CASE WHEN ${refilled} >= 1 THEN ${refilled} - 1 ELSE ${refilled} END,
      taken = ${refilled} >= 1,
      at = GREATEST(b.at, ${now})
    RETURNING tokens, taken`;
}

export function pgRateLimiter(db: PgDb, opts: RateLimitOptions): RateLimiter {
  return {
    take: async (key) => {
      const row = await db.one<{ tokens: number; taken: boolean }>(
        takeStatement(key, opts.burst, opts.now(), opts.perSecond),
      );
      if (!row) throw new Error('rate bucket upsert returned no row');
      return takeResult(row.taken, row.tokens, opts.perSecond);
    },
  };
}
