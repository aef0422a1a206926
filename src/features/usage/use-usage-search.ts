import { getRouteApi } from '@tanstack/react-router';
import { useCallback } from 'react';
import { mergeSearch, type SearchUpdate } from '../../lib/merge-search';
import type { UsageSearch } from './usage-search';

const usageRoute = getRouteApi('/_app/usage');

export function useUsageSearch(): UsageSearch {
  return usageRoute.useSearch();
}

export function useSetUsageSearch() {
  const navigate = usageRoute.useNavigate();
  return useCallback(
    (update: SearchUpdate<UsageSearch>) => void navigate({ to: '.', search: mergeSearch(update) }),
    [navigate],
  );
}
