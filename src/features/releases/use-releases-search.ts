import { getRouteApi } from '@tanstack/react-router';
import { useCallback } from 'react';
import { mergeSearch, type SearchUpdate } from '../../lib/merge-search';
import type { ReleasesPageSearch } from './releases-search';

const releasesRoute = getRouteApi('/_app/releases/');

/** The release list's URL search (its own keys and the layout's scope and range). */
export function useReleasesSearch(): ReleasesPageSearch {
  return releasesRoute.useSearch();
}

export function useSetReleasesSearch() {
  const navigate = releasesRoute.useNavigate();
  return useCallback(
    (update: SearchUpdate<ReleasesPageSearch>, options: { replace?: boolean } = {}) =>
      void navigate({ to: '.', search: mergeSearch(update), replace: options.replace ?? false }),
    [navigate],
  );
}
