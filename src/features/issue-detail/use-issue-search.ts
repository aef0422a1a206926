import { getRouteApi } from '@tanstack/react-router';
import { useCallback } from 'react';
import { mergeSearch, type SearchUpdate } from '../../lib/merge-search';
import type { IssueSearch } from './issue-search';

const issueRoute = getRouteApi('/_app/issues/$issueId');

/** The issue page's own URL search (the occurrence read, the stack's view). */
export function useIssueSearch(): IssueSearch {
  return issueRoute.useSearch();
}

/**
 * Changes the URL search. Each occurrence paged to is a history entry (Back returns to the
 * one before); the page keeps its scroll position, as the pager sits above the occurrence.
 */
export function useSetIssueSearch() {
  const navigate = issueRoute.useNavigate();
  return useCallback(
    (update: SearchUpdate<IssueSearch>, options: { replace?: boolean } = {}) =>
      void navigate({
        to: '.',
        search: mergeSearch(update),
        replace: options.replace ?? false,
        resetScroll: false,
      }),
    [navigate],
  );
}
