import { getRouteApi } from '@tanstack/react-router';
import { useCallback, useMemo } from 'react';
import { mergeSearch, type SearchUpdate } from '../../lib/merge-search';
import type { TimeRangeSearch } from '../../lib/time-range';
import type { IssueSearch } from './issue-search';

const issueRoute = getRouteApi('/_app/issues/$issueId');

/** The issue page's own URL search (the occurrence read, the stack's view). */
export function useIssueSearch(): IssueSearch {
  return issueRoute.useSearch();
}

/** The header's time range (the layout's `since` and `until`), as the URL holds it. */
export function useHeaderRange(): TimeRangeSearch {
  const since = issueRoute.useSearch({ select: (s) => s.since });
  const until = issueRoute.useSearch({ select: (s) => s.until });
  return useMemo(() => ({ since, until }), [since, until]);
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
