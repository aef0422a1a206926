import { getRouteApi } from '@tanstack/react-router';
import { useCallback } from 'react';
import { mergeSearch, type SearchUpdate } from '../../lib/merge-search';
import type { AnalyticsOverviewPageSearch } from './analytics-overview-search';

const analyticsRoute = getRouteApi('/_app/analytics/');

/** The overview page's URL search (its own keys and the layout's scope and range). */
export function useAnalyticsSearch(): AnalyticsOverviewPageSearch {
  return analyticsRoute.useSearch();
}

/**
 * Changes the URL search; every control is a choice, so each one is a history entry (`replace`
 * only for a choice the page makes itself, such as the project it opens on).
 */
export function useSetAnalyticsSearch() {
  const navigate = analyticsRoute.useNavigate();
  return useCallback(
    (update: SearchUpdate<AnalyticsOverviewPageSearch>, options: { replace?: boolean } = {}) =>
      void navigate({ to: '.', search: mergeSearch(update), replace: options.replace ?? false }),
    [navigate],
  );
}
