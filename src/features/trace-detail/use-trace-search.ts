import { getRouteApi } from '@tanstack/react-router';
import { useCallback } from 'react';
import { mergeSearch, type SearchUpdate } from '../../lib/merge-search';
import type { TracePageSearch } from './trace-search';

const traceRoute = getRouteApi('/_app/traces/$traceId');

/** The trace page's URL search (its own keys and the layout's scope and range). */
export function useTraceSearch(): TracePageSearch {
  return traceRoute.useSearch();
}

/**
 * Changes the URL search; `replace` for changes that should not pile up in history. The page
 * stays where it is (`resetScroll: false`): the router would otherwise put back the tree's
 * scroll position from before a jump to a span.
 */
export function useSetTraceSearch() {
  const navigate = traceRoute.useNavigate();
  return useCallback(
    (update: SearchUpdate<TracePageSearch>, options: { replace?: boolean } = {}) =>
      void navigate({
        to: '.',
        search: mergeSearch(update),
        replace: options.replace ?? false,
        resetScroll: false,
      }),
    [navigate],
  );
}
