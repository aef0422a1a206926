import { useMemo } from 'react';
import type { NextPageState } from './list-end-row';

/**
 * The next-page state of an infinite query as a list's end row and prefetch read it: stable
 * while nothing changes, and carrying the error only when fetching the next page failed.
 */
export function useNextPageState({
  hasNextPage,
  isFetchingNextPage,
  isFetchNextPageError,
  error,
  fetchNextPage,
}: {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  isFetchNextPageError: boolean;
  error: unknown;
  fetchNextPage: () => Promise<unknown>;
}): NextPageState {
  return useMemo(
    () => ({
      hasNextPage,
      isFetchingNextPage,
      error: isFetchNextPageError ? error : null,
      fetchNextPage: () => void fetchNextPage(),
    }),
    [hasNextPage, isFetchingNextPage, isFetchNextPageError, error, fetchNextPage],
  );
}
