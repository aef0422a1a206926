import type { ServiceConfig } from '../config';
import type { FeedHub } from '../feed/feed-hub';
import type { Store } from '../store/store';
import type { Logger } from './logger';
import type { RateLimiter } from './rate-limit';

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

/** Who an account request is from, once its credential has been checked. */
export type Principal = {
  accountId: string;
  via: 'bearer' | 'session';
};

export type AppEnv = {
  Variables: {
    principal: Principal;
    /** Set by `requireIngestKey` on the ingest routes: the project the key belongs to. */
    ingestKey: { projectId: string; keyId: string };
    /** The query parsed by `strictQuery()`: each accepted key once, decoded. */
    strictQuery: Record<string, string>;
    /** The parsed JSON body, set by `jsonBody()`. */
    jsonBody: unknown;
    /** Set by the error handler so the access log can record the error code. */
    errorCode: string;
  };
};
