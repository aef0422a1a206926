/**
 * How the live feed reaches the other service instances. One instance (SQLite) has none, so
 * its bus is empty; on PostgreSQL every instance listens (pg-feed-bus.ts). Each instance
 * fans out to its own connections; the bus carries only what another instance must know.
 */
export type FeedBus = {
  /**
   * Whether another instance holds (or is opening) a live connection. Checked per publish,
   * so an event accepted after a console connected anywhere reaches it.
   */
  othersListening(): Promise<boolean>;
  /** One project's messages (JSON texts, as sent on the wire), for the other instances. */
  publish(projectId: string, texts: readonly string[]): Promise<void>;
  /** Logout-all of the account at `at`: the other instances close its connections. */
  signedOutEverywhere(accountId: string, at: number): Promise<void>;
  /** Whether this instance holds (or is opening) a live connection, for `othersListening`. */
  setListening(listening: boolean): Promise<void>;
  /** What the other instances send; set once by the hub. */
  receive(handlers: FeedBusHandlers): void;
  close(): Promise<void>;
};

export type FeedBusHandlers = {
  /** Another instance published; `wanted()` false skips reading the messages back. */
  wanted: () => boolean;
  event: (projectId: string, texts: readonly string[]) => Promise<void>;
  signedOut: (accountId: string, at: number) => void;
};
