import { hashToken, newToken } from '../domain/secrets';
import type { Store } from '../store/store';

/** One message of the live feed (spec: Events): read `type` before `data`. */
export type FeedMessage = {
  type: 'native_log' | 'native_issue' | 'native_trace_span' | 'native_action';
  data: unknown;
};

type Connection = {
  accountId: string;
  send: (text: string) => void;
  close: (code: number, reason: string) => void;
  /** Bytes handed to `send` that the network has not taken yet. */
  backlog: () => number;
  readable: { projectIds: Set<string>; at: number } | null;
};

/** A redeemed ticket: whose connection it opens, and when the ticket was issued. */
export type FeedGrant = { accountId: string; issuedAt: number };

/** Close code when logout-all ends a connection: the client must sign in again, not just reconnect. */
export const CLOSE_SIGNED_OUT = 4001;
/**
 * Close code when a connection stopped reading: like any close but 4001, the client reconnects
 * and re-reads the lists.
 */
export const CLOSE_TOO_SLOW = 4008;
/**
 * Unsent bytes a connection may hold. A client that stops reading (a suspended laptop, a stuck
 * tab) would otherwise make the service buffer every later event for it, without bound. Above
 * one large publish (an ingest body is at most 10 MiB), so a reader that keeps up is not cut;
 * one that is cut reconnects and re-reads the lists, which it would need to do anyway.
 */
export const MAX_BACKLOG_BYTES = 16 * 1024 * 1024;
/** How long a connection trusts its list of readable projects before re-reading it. */
const READABLE_TTL_MS = 5_000;

/**
 * Tickets, live connections and fan-out. A ticket is single-use and short-lived; an event
 * reaches a connection only when its account can read the event's project (checked per
 * event, with a short cache, so access changes apply within seconds).
 */
export function createFeedHub(deps: {
  store: Store;
  now: () => number;
  ticketTtlSeconds: number;
  maxBacklogBytes?: number;
}) {
  const maxBacklog = deps.maxBacklogBytes ?? MAX_BACKLOG_BYTES;
  const tickets = new Map<string, { accountId: string; issuedAt: number; expiresAt: number }>();
  const connections = new Set<Connection>();
  /** When each account last signed out everywhere (for handshakes still under way then). */
  const signedOutAt = new Map<string, number>();

  function sweepTickets() {
    const now = deps.now();
    for (const [k, t] of tickets) if (t.expiresAt <= now) tickets.delete(k);
    // Once every ticket issued before a sign-out has expired, no handshake can still depend on it.
    const ttlMs = deps.ticketTtlSeconds * 1000;
    for (const [a, at] of signedOutAt) if (now - at > ttlMs) signedOutAt.delete(a);
  }

  async function readable(conn: Connection): Promise<Set<string>> {
    const now = deps.now();
    if (!conn.readable || now - conn.readable.at > READABLE_TTL_MS) {
      const projects = await deps.store.projects.readableBy(conn.accountId);
      conn.readable = { projectIds: new Set(projects.map((p) => p.id)), at: now };
    }
    return conn.readable.projectIds;
  }

  return {
    issueTicket(accountId: string): { ticket: string; expiresInSeconds: number } {
      sweepTickets();
      const ticket = newToken('feedTicket');
      const now = deps.now();
      tickets.set(hashToken(ticket), {
        accountId,
        issuedAt: now,
        expiresAt: now + deps.ticketTtlSeconds * 1000,
      });
      return { ticket, expiresInSeconds: deps.ticketTtlSeconds };
    },

    /** The ticket's grant if it is unused, unexpired and not revoked by logout-all; it is then spent. */
    async redeem(ticket: string): Promise<FeedGrant | null> {
      const key = hashToken(ticket);
      const t = tickets.get(key);
      if (!t) return null;
      tickets.delete(key);
      if (t.expiresAt <= deps.now()) return null;
      const account = await deps.store.accounts.byId(t.accountId);
      if (!account || (account.revokedBefore !== null && t.issuedAt <= account.revokedBefore))
        return null;
      return { accountId: t.accountId, issuedAt: t.issuedAt };
    },

    /**
     * Adds the connection a grant opened. Logout-all can run between redeeming the ticket and
     * the end of the WebSocket handshake; such a connection is closed at once, as logout-all
     * would have closed it.
     */
    attach(grant: FeedGrant, socket: Pick<Connection, 'send' | 'close' | 'backlog'>): () => void {
      const signedOut = signedOutAt.get(grant.accountId);
      if (signedOut !== undefined && grant.issuedAt <= signedOut) {
        socket.close(CLOSE_SIGNED_OUT, 'signed out everywhere');
        return () => {};
      }
      const conn: Connection = { accountId: grant.accountId, ...socket, readable: null };
      connections.add(conn);
      return () => connections.delete(conn);
    },

    /** Sends the messages of one project to every connection allowed to read it. */
    async publish(projectId: string, messages: FeedMessage[]): Promise<void> {
      if (messages.length === 0 || connections.size === 0) return;
      const texts = messages.map((m) => JSON.stringify(m));
      for (const conn of [...connections]) {
        if (!(await readable(conn)).has(projectId)) continue;
        for (const text of texts) {
          if (conn.backlog() > maxBacklog) {
            connections.delete(conn);
            conn.close(
              CLOSE_TOO_SLOW,
              'the connection stopped reading; reconnect and re-read the lists',
            );
            break;
          }
          try {
            conn.send(text);
          } catch {
            connections.delete(conn);
            break;
          }
        }
      }
    },

    closeAccount(accountId: string): void {
      signedOutAt.set(accountId, deps.now());
      for (const conn of [...connections]) {
        if (conn.accountId !== accountId) continue;
        connections.delete(conn);
        conn.close(CLOSE_SIGNED_OUT, 'signed out everywhere');
      }
      for (const [k, t] of tickets) if (t.accountId === accountId) tickets.delete(k);
    },

    closeAll(code: number, reason: string): void {
      for (const conn of connections) conn.close(code, reason);
      connections.clear();
    },

    get connectionCount() {
      return connections.size;
    },
  };
}

export type FeedHub = ReturnType<typeof createFeedHub>;
