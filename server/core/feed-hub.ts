/** One message of the live feed (spec: Events): read `type` before `data`. */
export type FeedMessage = {
  type: 'native_log' | 'native_issue' | 'native_trace_span' | 'native_action';
  data: unknown;
};

/** Where a publish would be heard: connections of this instance, or another instance's. */
export type FeedReach = { here: boolean; elsewhere: boolean };

/** A redeemed ticket: whose connection it opens, and when the ticket was issued. */
export type FeedGrant = { accountId: string; issuedAt: number };

/** The WebSocket of one live connection, as the hub sees it. */
export type FeedSocket = {
  send: (text: string) => void;
  close: (code: number, reason: string) => void;
  /** Bytes handed to `send` that the network has not taken yet. */
  backlog: () => number;
};

/**
 * Tickets, live connections and fan-out (feed/feed-hub.ts). Routes hand it what ingestion
 * stored; the WebSocket upgrade attaches connections to it.
 */
export type FeedHub = {
  issueTicket(accountId: string): Promise<{ ticket: string; expiresInSeconds: number }>;
  /** The ticket's grant if it is unused, unexpired and not revoked by logout-all; it is then spent. */
  redeem(ticket: string): Promise<FeedGrant | null>;
  /** Adds the connection a grant opened; returns what detaches it. */
  attach(grant: FeedGrant, socket: FeedSocket): () => void;
  /** Who a publish can reach now: connections here, and whether another instance listens. */
  reach(): Promise<FeedReach>;
  /** Sends one project's messages to every connection allowed to read it, on every instance. */
  publish(projectId: string, messages: FeedMessage[], elsewhere?: boolean): Promise<void>;
  /** Logout-all: closes the account's connections on every instance and spends its tickets. */
  closeAccount(accountId: string): Promise<void>;
  /** Closes this instance's connections (shutdown). */
  closeAll(code: number, reason: string): void;
  readonly connectionCount: number;
};
