import { getRouteApi } from '@tanstack/react-router';
import type { Project } from '../../api/queries/projects';
import { parseProjectScope, readableScope } from '../../lib/project-scope';
import { useStableValue } from '../../lib/use-stable-value';
import { LiveIndicator } from './live-indicator';

const appRoute = getRouteApi('/_app');

/** The Live indicator for the URL's project scope (`project` / `projects`; absent = all). */
export function LiveControl({ projects }: { projects: readonly Project[] }) {
  const search = appRoute.useSearch();
  const scope = readableScope(
    parseProjectScope(search),
    projects.map((p) => p.id),
  );
  // One array per scope, so the indicator's selectors and callbacks stay stable across renders.
  const projectIds = useStableValue(scope.kind === 'all' ? null : scope.ids);
  return <LiveIndicator projects={projects} projectIds={projectIds} />;
}
