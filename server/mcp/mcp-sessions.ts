import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';

/** Bounds of the sessions one instance keeps in memory. */
export const MCP_SESSION_LIMITS = {
  /** Sessions of one tool connection; a new one ends the least recently used. */
  perConnection: 10,
  /** Sessions of the whole instance; a new one ends the least recently used. */
  total: 1_000,
  /** A session unused this long is ended (the client starts a new one). */
  idleMs: 60 * 60_000,
} as const;

export type McpSession = {
  id: string;
  transport: WebStandardStreamableHTTPServerTransport;
  server: McpServer;
  connectionId: string;
  /** The hash of the token that opened it: a refused token ends its sessions. */
  tokenHash: string;
  /** The connection's expiry: the session ends with it. */
  expiresAt: number | null;
  lastUsedAt: number;
};

/**
 * The open MCP sessions of this instance, each bound to the tool connection that opened it.
 * A session never outlives its connection: revoked (announced, or found on a request),
 * expired, or idle, it is closed and forgotten, and its id answers `404` from then on.
 */
export function createMcpSessions(now: () => number) {
  const sessions = new Map<string, McpSession>();

  const end = (s: McpSession) => {
    sessions.delete(s.id);
    // Closing the server closes its transport; a close that fails leaves nothing to undo.
    void s.server.close().catch(() => undefined);
  };

  const endWhere = (pred: (s: McpSession) => boolean): number => {
    let ended = 0;
    for (const s of [...sessions.values()])
      if (pred(s)) {
        end(s);
        ended += 1;
      }
    return ended;
  };

  const leastRecent = (list: McpSession[]) =>
    list.reduce<McpSession | undefined>(
      (a, b) => (a === undefined || b.lastUsedAt < a.lastUsedAt ? b : a),
      undefined,
    );

  return {
    get: (id: string) => sessions.get(id),
    size: () => sessions.size,
    ofConnection: (connectionId: string) =>
      [...sessions.values()].filter((s) => s.connectionId === connectionId).length,
    /** Keeps a new session, ending the least recently used ones beyond the bounds. */
    add(session: McpSession) {
      const mine = [...sessions.values()].filter((s) => s.connectionId === session.connectionId);
      if (mine.length >= MCP_SESSION_LIMITS.perConnection) {
        const oldest = leastRecent(mine);
        if (oldest) end(oldest);
      }
      if (sessions.size >= MCP_SESSION_LIMITS.total) {
        const oldest = leastRecent([...sessions.values()]);
        if (oldest) end(oldest);
      }
      sessions.set(session.id, session);
    },
    /** Forgets a session its client ended (DELETE) or whose transport closed. */
    forget: (id: string) => sessions.delete(id),
    endWhere,
    /** Ends idle sessions and those whose connection has expired (checked on each request). */
    sweep(): void {
      const t = now();
      endWhere(
        (s) =>
          t - s.lastUsedAt >= MCP_SESSION_LIMITS.idleMs ||
          (s.expiresAt !== null && s.expiresAt <= t),
      );
    },
    endAll: () => endWhere(() => true),
  };
}

export type McpSessions = ReturnType<typeof createMcpSessions>;
