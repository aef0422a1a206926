import { CLOSE_GOING_AWAY } from './feed/feed-hub';
import type { FeedHub } from './core/feed-hub';
import type { Listening } from './listen';

/** How long requests under way may take to finish once the service is told to stop. */
export const SHUTDOWN_GRACE_MS = 10_000;

/**
 * SIGTERM/SIGINT: stop accepting connections, let requests under way finish (at most
 * `graceMs`), close the live connections with 1001 so consoles reconnect elsewhere, then
 * close what the instance holds (the feed's listening connection, the store).
 */
export async function shutdownService(
  listening: Listening,
  service: { deps: { feed: FeedHub }; close: () => Promise<void> },
  graceMs = SHUTDOWN_GRACE_MS,
): Promise<void> {
  await listening.shutdown({
    graceMs,
    closeLive: () => service.deps.feed.closeAll(CLOSE_GOING_AWAY, 'service stopping'),
  });
  await service.close();
}
