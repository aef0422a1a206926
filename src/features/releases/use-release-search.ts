import { getRouteApi } from '@tanstack/react-router';
import type { ReleasePageSearch } from './release-search';

const releaseRoute = getRouteApi('/_app/releases/$release');

/** The release page's URL search (its own keys and the layout's scope and range). */
export function useReleaseSearch(): ReleasePageSearch {
  return releaseRoute.useSearch();
}
