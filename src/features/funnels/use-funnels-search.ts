import { getRouteApi } from '@tanstack/react-router';
import { useCallback } from 'react';
import { mergeSearch, type SearchUpdate } from '../../lib/merge-search';
import type { FunnelsPageSearch } from './funnels-search';

const funnelsRoute = getRouteApi('/_app/analytics/funnels');

/** The funnels page's URL search (the definition, and the layout's scope and range). */
export function useFunnelsSearch(): FunnelsPageSearch {
  return funnelsRoute.useSearch();
}

/** Changes the definition in the URL; each change is a history entry (back undoes it). */
export function useSetFunnelsSearch() {
  const navigate = funnelsRoute.useNavigate();
  return useCallback(
    (update: SearchUpdate<FunnelsPageSearch>, options: { replace?: boolean } = {}) =>
      void navigate({ to: '.', search: mergeSearch(update), replace: options.replace ?? false }),
    [navigate],
  );
}
