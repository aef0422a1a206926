import type { FeedTickets, StoredTicket } from '../core/feed-tickets';

/** Unused tickets of one instance, in memory. */
export function memoryFeedTickets(): FeedTickets {
  const tickets = new Map<string, StoredTicket>();
  return {
    put: async (hash, ticket) => {
      tickets.set(hash, ticket);
    },
    take: async (hash) => {
      const t = tickets.get(hash) ?? null;
      tickets.delete(hash);
      return t;
    },
    dropAccount: async (accountId) => {
      for (const [k, t] of tickets) if (t.accountId === accountId) tickets.delete(k);
    },
    sweep: async (now) => {
      for (const [k, t] of tickets) if (t.expiresAt <= now) tickets.delete(k);
    },
  };
}
