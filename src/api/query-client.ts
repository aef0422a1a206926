import { QueryClient } from '@tanstack/react-query';
import { retryDelayMs, shouldRetry } from './errors';

/**
 * The one QueryClient factory. Reads follow the spec's retry rules (transient failures only,
 * at most three attempts, backoff with jitter, rate limits wait `retry_after_seconds`);
 * mutations are never re-sent by default, because a failed write is not proof it failed.
 * Tests pass `{ retry: false }`.
 *
 * React Query passes the failures *before* the one just seen (0 after the first failure);
 * `shouldRetry` counts every failure, hence `failures + 1`: at most MAX_ATTEMPTS attempts.
 */
export function createQueryClient(options: { retry?: false } = {}): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: options.retry ?? ((failures, error) => shouldRetry(error, failures + 1, 'read')),
        retryDelay: (attempt, error) => retryDelayMs(error, attempt),
        staleTime: 30_000,
        refetchOnWindowFocus: true,
      },
      mutations: {
        retry: false,
      },
    },
  });
}
