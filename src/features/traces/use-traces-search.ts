import { getRouteApi } from '@tanstack/react-router';
import { useCallback } from 'react';
import { mergeSearch, type SearchUpdate } from '../../lib/merge-search';
import type { TracesPageSearch } from './traces-search';

const tracesRoute = getRouteApi('/_app/traces/');

/** The trace explorer's URL search (its own keys and the layout's scope and range). */
export function useTracesSearch(): TracesPageSearch {
  return tracesRoute.useSearch();
}

/** Changes the URL search; typing replaces the history entry instead of adding one per key. */
export function useSetTracesSearch() {
  const navigate = tracesRoute.useNavigate();
  return useCallback(
    (update: SearchUpdate<TracesPageSearch>, options: { replace?: boolean } = {}) =>
      void navigate({ to: '.', search: mergeSearch(update), replace: options.replace ?? false }),
    [navigate],
  );
}
