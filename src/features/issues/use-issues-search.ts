import { getRouteApi } from '@tanstack/react-router';
import { useCallback } from 'react';
import { mergeSearch, type SearchUpdate } from '../../lib/merge-search';
import type { IssuesPageSearch } from './issues-search';

const issuesRoute = getRouteApi('/_app/issues/');

/** The board's URL search (its own keys and the layout's scope and range). */
export function useIssuesSearch(): IssuesPageSearch {
  return issuesRoute.useSearch();
}

export function useSetIssuesSearch() {
  const navigate = issuesRoute.useNavigate();
  return useCallback(
    (update: SearchUpdate<IssuesPageSearch>, options: { replace?: boolean } = {}) =>
      void navigate({ to: '.', search: mergeSearch(update), replace: options.replace ?? false }),
    [navigate],
  );
}
