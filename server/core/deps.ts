import type { ServiceConfig } from './config';
import type { FeedHub } from './feed-hub';
import type { Logger } from './logger';
import type { RateLimiter } from './rate-limiter';
import type { Store } from './store/store';

/** What every route module is built with. Passed explicitly: no globals, no process.env. */
export type Deps = {
  store: Store;
  config: ServiceConfig;
  /** Epoch milliseconds; tests replace it to move time. */
  now: () => number;
  log: Logger;
  /** Live-feed tickets, connections and fan-out. */
  feed: FeedHub;
  /** Token buckets per ingest key (shared by every instance on PostgreSQL). */
  ingestLimiter: RateLimiter;
  /** Called after logout-all so live connections of that account end (the feed registers here). */
  onAccountSignedOutEverywhere: Set<(accountId: string) => void>;
};
