import { getRouteApi } from '@tanstack/react-router';
import { useCallback } from 'react';
import { mergeSearch, type SearchUpdate } from '../../lib/merge-search';
import type { LogsPageSearch } from './logs-search';

const logsRoute = getRouteApi('/_app/logs');

/** The logs page's URL search (its own keys and the layout's scope and range). */
export function useLogsSearch(): LogsPageSearch {
  return logsRoute.useSearch();
}

/**
 * Changes the URL search. Typing replaces the history entry (`replace`), so Back leaves the
 * page's last view instead of stepping through every keystroke.
 */
export function useSetLogsSearch() {
  const navigate = logsRoute.useNavigate();
  return useCallback(
    (update: SearchUpdate<LogsPageSearch>, options: { replace?: boolean } = {}) =>
      void navigate({ to: '.', search: mergeSearch(update), replace: options.replace ?? false }),
    [navigate],
  );
}
