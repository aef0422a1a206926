import { getRouteApi } from '@tanstack/react-router';
import { useCallback } from 'react';
import { mergeSearch, type SearchUpdate } from '../../lib/merge-search';
import type { MetricsPageSearch } from './metrics-search';

const metricsRoute = getRouteApi('/_app/metrics');

/** The metrics page's URL search (its own keys and the layout's scope and range). */
export function useMetricsSearch(): MetricsPageSearch {
  return metricsRoute.useSearch();
}

/** Changes the URL search; every control is a choice, so each one is a history entry. */
export function useSetMetricsSearch() {
  const navigate = metricsRoute.useNavigate();
  return useCallback(
    (update: SearchUpdate<MetricsPageSearch>, options: { replace?: boolean } = {}) =>
      void navigate({ to: '.', search: mergeSearch(update), replace: options.replace ?? false }),
    [navigate],
  );
}
