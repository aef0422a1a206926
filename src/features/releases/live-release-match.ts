import type { ReleaseListFilters } from '../../api/queries/releases';
import type { LiveEvent } from '../../live/live-message';

/**
 * Whether a live event can change the release rows of a read: its project is in the read's
 * scope (none named: every readable project) and its release, environment and service match
 * the read's exact filters. A record without those names (an older feed) counts as a match.
 */
export function liveEventTouchesReleases(event: LiveEvent, filters: ReleaseListFilters): boolean {
  const d = event.data;
  if (filters.project_id !== undefined && d.project_id !== filters.project_id) return false;
  if (filters.project_ids !== undefined && !filters.project_ids.split(',').includes(d.project_id))
    return false;
  const same = (key: 'release' | 'environment' | 'service_name') => {
    const wanted = filters[key];
    const value = d[key];
    return wanted === undefined || typeof value !== 'string' || value === wanted;
  };
  return same('release') && same('environment') && same('service_name');
}
