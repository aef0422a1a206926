import { z } from 'zod/mini';
import { lenient, searchMatching, searchText } from '../../lib/search-fields';
import type { ReleaseListFilters } from '../../api/queries/releases';
import {
  parseProjectScope,
  readableScope,
  scopeQuery,
  type ProjectScopeSearch,
} from '../../lib/project-scope';
import type { TimeRangeSearch } from '../../lib/time-range';
import { SIGNAL_ORDER, type SignalKey } from './release-view';

/** A caller-chosen deployment id, as the service accepts it in a path. */
export const DEPLOYMENT_ID = /^[A-Za-z0-9][A-Za-z0-9._~-]{0,127}$/;

/** `none`, or signal keys in the page's order, comma-separated: `traces,logs`. */
export function isOpenSectionsText(text: string): boolean {
  if (text === 'none') return true;
  const keys = text.split(',');
  const known = keys.map((k) => SIGNAL_ORDER.indexOf(k as SignalKey));
  return known.every((at, i) => at >= 0 && (i === 0 || at > (known[i - 1] ?? -1)));
}

/**
 * The release page's own search (beside the layout's `project`/`projects`/`since`/`until`):
 * the row is the path's release with this `environment` and `service` in the layout's
 * `project`; `deployment` highlights one deployment of the timeline; `open` names the signal
 * sections open (absent: the one the row's `next_action` starts with).
 */
export const releaseSearchSchema = z.object({
  environment: searchText(256),
  service: searchText(256),
  deployment: lenient(z.string().check(z.regex(DEPLOYMENT_ID))),
  open: searchMatching(isOpenSectionsText),
});

/** The sections open for the URL's `open` (the default: the section to start with). */
export function openSectionsOf(
  open: string | undefined,
  start: SignalKey | null,
): ReadonlySet<SignalKey> {
  if (open === undefined) return new Set(start === null ? [] : [start]);
  if (open === 'none') return new Set();
  return new Set(open.split(',') as SignalKey[]);
}

/** The URL's `open` for a set of open sections; the default is left out of the URL. */
export function openSectionsSearch(
  open: ReadonlySet<SignalKey>,
  start: SignalKey | null,
): string | undefined {
  const keys = SIGNAL_ORDER.filter((k) => open.has(k));
  const isDefault = start === null ? keys.length === 0 : keys.length === 1 && keys[0] === start;
  if (isDefault) return undefined;
  return keys.length === 0 ? 'none' : keys.join(',');
}

export type ReleaseSearch = z.infer<typeof releaseSearchSchema>;

export type ReleasePageSearch = ReleaseSearch & ProjectScopeSearch & TimeRangeSearch;

/**
 * The rows the page reads for the path's release: in the layout's scope (`project`, the
 * way links name the row), with the `environment` and `service` when given. Every row of the
 * release is read (no `since`): a release page does not depend on the header's range.
 */
export function releaseRowFiltersOf(
  release: string,
  search: ReleasePageSearch,
  readableProjectIds: readonly string[],
): ReleaseListFilters {
  const scope = readableScope(parseProjectScope(search), readableProjectIds);
  const filters: ReleaseListFilters = { ...scopeQuery(scope), release };
  if (search.environment) filters.environment = search.environment;
  if (search.service) filters.service_name = search.service;
  return filters;
}

/** Only what names the row reloads it (not the highlighted deployment nor the range). */
export function rowSearchOf(search: ReleasePageSearch): ReleasePageSearch {
  return {
    project: search.project,
    projects: search.projects,
    environment: search.environment,
    service: search.service,
  };
}
