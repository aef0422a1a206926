/** A live-feed ticket as stored: whose it is, and its lifetime (epoch milliseconds). */
export type StoredTicket = { accountId: string; issuedAt: number; expiresAt: number };

/**
 * Where unused tickets wait to be redeemed: in memory for one instance, in PostgreSQL when
 * several share it (a ticket issued by one instance is redeemed at another). Keys are
 * ticket hashes, never the tickets themselves.
 */
export type FeedTickets = {
  put(ticketHash: string, ticket: StoredTicket): Promise<void>;
  /** Removes and returns the ticket: of several concurrent takes, exactly one gets it. */
  take(ticketHash: string): Promise<StoredTicket | null>;
  /** Removes every unused ticket of the account (logout-all). */
  dropAccount(accountId: string): Promise<void>;
  /** Removes tickets expired at `now`. */
  sweep(now: number): Promise<void>;
};
