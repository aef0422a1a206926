import type { QueryClient } from '@tanstack/react-query';

/**
 * After a reconnect, every list is read again: the feed does not replay what was missed
 * while disconnected (spec: Events). Lists are the queries whose key's second element is
 * `'list'` (`['projects', 'list']`, `['logs', 'list', params]`); details are left alone.
 */
export function isListQueryKey(queryKey: readonly unknown[]): boolean {
  return queryKey[1] === 'list';
}

export function onReconnected(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ predicate: (query) => isListQueryKey(query.queryKey) });
}
