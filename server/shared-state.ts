import type { ServiceConfig } from './core/config';
import { inProcessFeedBus } from './feed/in-process-feed-bus';
import type { FeedBus } from './core/feed-bus';
import { memoryFeedTickets } from './feed/memory-feed-tickets';
import type { FeedTickets } from './core/feed-tickets';
import type { Logger } from './core/logger';
import { createRateLimiter } from './http/rate-limit';
import type { RateLimiter } from './core/rate-limiter';
import { pgFeedBus } from './store/postgres/pg-feed-bus';
import { pgContextOf, pgFeedTickets, pgRateLimiter } from './store/postgres/pg-shared-state';
import type { Store } from './core/store/store';

/** What service instances share: live-feed tickets and events, and the ingest rate limits. */
export type SharedState = {
  feedTickets: FeedTickets;
  feedBus: FeedBus;
  ingestLimiter: RateLimiter;
  close(): Promise<void>;
};

/**
 * In PostgreSQL when the store is (any number of instances may run on it), in memory for
 * SQLite (one instance owns the file).
 */
export async function openSharedState(
  config: Pick<ServiceConfig, 'databaseUrl' | 'ingestRate'>,
  store: Store,
  log: Logger,
  now: () => number,
): Promise<SharedState> {
  const rate = { ...config.ingestRate, now };
  const pg = pgContextOf(store);
  if (!pg || !config.databaseUrl) {
    const feedBus = inProcessFeedBus();
    return {
      feedTickets: memoryFeedTickets(),
      feedBus,
      ingestLimiter: createRateLimiter(rate),
      close: () => feedBus.close(),
    };
  }
  const feedBus = await pgFeedBus({ db: pg.db, schema: pg.schema, url: config.databaseUrl, log });
  return {
    feedTickets: pgFeedTickets(pg.db),
    feedBus,
    ingestLimiter: pgRateLimiter(pg.db, rate),
    close: () => feedBus.close(),
  };
}
