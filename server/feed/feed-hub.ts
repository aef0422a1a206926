import { hashToken, newToken } from '../domain/secrets';
import type { FeedGrant, FeedHub, FeedMessage, FeedReach, FeedSocket } from '../core/feed-hub';
import type { Store } from '../core/store/store';
import { inProcessFeedBus } from './in-process-feed-bus';
import type { FeedBus } from '../core/feed-bus';
import { memoryFeedTickets } from './memory-feed-tickets';
import type { FeedTickets } from '../core/feed-tickets';

type Connection = FeedSocket & {
  accountId: string;
  readable: { projectIds: Set<string>; at: number } | null;
};

/** Close code when logout-all ends a connection: the client must sign in again, not just reconnect. */
export const CLOSE_SIGNED_OUT = 4001;
/**
 * Close code when the instance stops (SIGTERM, a deploy): 1001 "going away". Like any close
 * but 4001, the console reconnects with a fresh ticket, to this or another instance.
 */
export const CLOSE_GOING_AWAY = 1001;
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
 * How long a redeemed ticket counts as a connection being opened. The WebSocket handshake
 * follows the redeem at once; one that never completes must not keep the instance marked as
 * listening for good.
 */
const HANDSHAKE_MS = 30_000;

/**
 * Tickets, live connections and fan-out. A ticket is single-use and short-lived; an event
 * reaches a connection only when its account can read the event's project (checked per
 * event, with a short cache, so access changes apply within seconds). Tickets live in
 * `tickets` and events reach the other service instances through `bus`: both are in memory
 * for one instance and in PostgreSQL for several.
 */
export function createFeedHub(deps: {
  store: Store;
  now: () => number;
  ticketTtlSeconds: number;
  maxBacklogBytes?: number;
  tickets?: FeedTickets;
  bus?: FeedBus;
}): FeedHub {
  const maxBacklog = deps.maxBacklogBytes ?? MAX_BACKLOG_BYTES;
  const tickets = deps.tickets ?? memoryFeedTickets();
  const bus = deps.bus ?? inProcessFeedBus();
  const connections = new Set<Connection>();
  /** Grants redeemed whose handshake has not attached a connection yet. */
  const handshakes = new Map<FeedGrant, ReturnType<typeof setTimeout>>();
  /** When each account last signed out everywhere (for handshakes still under way then). */
  const signedOutAt = new Map<string, number>();
  let listening = false;

  /**
   * Tells the other instances whether this one holds or opens a connection. Becoming
   * listening is awaited before the handshake answers, so an event accepted anywhere after
   * the client saw its connection open is published to the bus.
   */
  async function updateListening(): Promise<void> {
    const now = connections.size > 0 || handshakes.size > 0;
    if (now === listening) return;
    listening = now;
    await bus.setListening(now);
  }

  function sweepSignOuts() {
    const now = deps.now();
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

  /** Sends one project's messages to this instance's connections allowed to read it. */
  async function deliver(projectId: string, texts: readonly string[]): Promise<void> {
    if (texts.length === 0 || connections.size === 0) return;
    for (const conn of [...connections]) {
      if (!(await readable(conn)).has(projectId)) continue;
      for (const text of texts) {
        if (conn.backlog() > maxBacklog) {
          drop(conn);
          conn.close(
            CLOSE_TOO_SLOW,
            'the connection stopped reading; reconnect and re-read the lists',
          );
          break;
        }
        try {
          conn.send(text);
        } catch {
          drop(conn);
          break;
        }
      }
    }
  }

  function drop(conn: Connection) {
    if (connections.delete(conn)) void updateListening().catch(() => undefined);
  }

  /** Closes this instance's connections of the account (logout-all at `at`). */
  function closeLocal(accountId: string, at: number) {
    signedOutAt.set(accountId, Math.max(at, signedOutAt.get(accountId) ?? at));
    for (const conn of [...connections]) {
      if (conn.accountId !== accountId) continue;
      drop(conn);
      conn.close(CLOSE_SIGNED_OUT, 'signed out everywhere');
    }
  }

  bus.receive({
    wanted: () => connections.size > 0,
    event: deliver,
    signedOut: closeLocal,
  });

  return {
    async issueTicket(accountId: string): Promise<{ ticket: string; expiresInSeconds: number }> {
      sweepSignOuts();
      const now = deps.now();
      await tickets.sweep(now);
      const ticket = newToken('feedTicket');
      await tickets.put(hashToken(ticket), {
        accountId,
        issuedAt: now,
        expiresAt: now + deps.ticketTtlSeconds * 1000,
      });
      return { ticket, expiresInSeconds: deps.ticketTtlSeconds };
    },

    /** The ticket's grant if it is unused, unexpired and not revoked by logout-all; it is then spent. */
    async redeem(ticket: string): Promise<FeedGrant | null> {
      const t = await tickets.take(hashToken(ticket));
      if (!t) return null;
      if (t.expiresAt <= deps.now()) return null;
      const account = await deps.store.accounts.byId(t.accountId);
      if (!account || (account.revokedBefore !== null && t.issuedAt <= account.revokedBefore))
        return null;
      const grant: FeedGrant = { accountId: t.accountId, issuedAt: t.issuedAt };
      const timer = setTimeout(() => {
        handshakes.delete(grant);
        void updateListening().catch(() => undefined);
      }, HANDSHAKE_MS);
      timer.unref();
      handshakes.set(grant, timer);
      await updateListening();
      return grant;
    },

    /**
     * Adds the connection a grant opened. Logout-all can run between redeeming the ticket and
     * the end of the WebSocket handshake; such a connection is closed at once, as logout-all
     * would have closed it.
     */
    attach(grant: FeedGrant, socket: FeedSocket): () => void {
      clearTimeout(handshakes.get(grant));
      handshakes.delete(grant);
      const signedOut = signedOutAt.get(grant.accountId);
      if (signedOut !== undefined && grant.issuedAt <= signedOut) {
        socket.close(CLOSE_SIGNED_OUT, 'signed out everywhere');
        void updateListening().catch(() => undefined);
        return () => {};
      }
      const conn: Connection = { accountId: grant.accountId, ...socket, readable: null };
      connections.add(conn);
      void updateListening().catch(() => undefined);
      return () => drop(conn);
    },

    /**
     * Who a publish can reach now: connections here, and whether another instance listens
     * (one question to the bus). Building the messages costs more than storing the batch, so
     * nobody listening skips it; pass the answer on to `publish` so it is not asked twice.
     */
    async reach(): Promise<FeedReach> {
      return { here: connections.size > 0, elsewhere: await bus.othersListening() };
    },

    /**
     * Sends the messages of one project to every connection allowed to read it, on every
     * instance. `elsewhere` is `reach()`'s answer when the caller just asked.
     */
    async publish(projectId: string, messages: FeedMessage[], elsewhere?: boolean): Promise<void> {
      if (messages.length === 0) return;
      const texts = messages.map((m) => JSON.stringify(m));
      await deliver(projectId, texts);
      if (elsewhere ?? (await bus.othersListening())) await bus.publish(projectId, texts);
    },

    /** Logout-all: closes the account's connections on every instance and spends its tickets. */
    async closeAccount(accountId: string): Promise<void> {
      const at = deps.now();
      closeLocal(accountId, at);
      await Promise.all([tickets.dropAccount(accountId), bus.signedOutEverywhere(accountId, at)]);
    },

    /** Closes this instance's connections (shutdown). */
    closeAll(code: number, reason: string): void {
      for (const conn of connections) conn.close(code, reason);
      connections.clear();
      void updateListening().catch(() => undefined);
    },

    get connectionCount() {
      return connections.size;
    },
  };
}
