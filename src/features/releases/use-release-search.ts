import { getRouteApi } from '@tanstack/react-router';
import { useCallback } from 'react';
import { mergeSearch, type SearchUpdate } from '../../lib/merge-search';
import type { ReleasePageSearch } from './release-search';

const releaseRoute = getRouteApi('/_app/releases/$release');

/** The release page's URL search (its own keys and the layout's scope and range). */
export function useReleaseSearch(): ReleasePageSearch {
  return releaseRoute.useSearch();
}

/**
 * Changes the release page's URL search in place (`replace`: opening a section is not a step
 * Back walks through); the page keeps its scroll position.
 */
export function useSetReleaseSearch() {
  const navigate = releaseRoute.useNavigate();
  return useCallback(
    (update: SearchUpdate<ReleasePageSearch>) =>
      void navigate({ to: '.', search: mergeSearch(update), replace: true, resetScroll: false }),
    [navigate],
  );
}
