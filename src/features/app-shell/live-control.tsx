import { getRouteApi } from '@tanstack/react-router';
import { useMemo } from 'react';
import type { Project } from '../../api/queries/projects';
import { parseProjectScope, readableScope } from '../../lib/project-scope';
import { LiveIndicator } from './live-indicator';

const appRoute = getRouteApi('/_app');

/** The Live indicator for the URL's project scope (`project` / `projects`; absent = all). */
export function LiveControl({ projects }: { projects: readonly Project[] }) {
  const search = appRoute.useSearch();
  const scope = readableScope(
    parseProjectScope(search),
    projects.map((p) => p.id),
  );
  const scopeKey = scope.kind === 'all' ? null : scope.ids.join(',');
  // One array per scope, so the indicator's selectors and callbacks stay stable across renders.
  const projectIds = useMemo(() => (scopeKey === null ? null : scopeKey.split(',')), [scopeKey]);
  return <LiveIndicator projects={projects} projectIds={projectIds} />;
}
