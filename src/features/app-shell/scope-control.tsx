import { getRouteApi } from '@tanstack/react-router';
import type { Project } from '../../api/queries/projects';
import { parseProjectScope, readableScope, serializeProjectScope } from '../../lib/project-scope';
import { ProjectScopePicker } from '../../ui/project-scope-picker';
import { useChangeScope } from './use-change-scope';

const appRoute = getRouteApi('/_app');

/** The project scope picker, kept in the layout's URL search (`project` / `projects`). */
export function ScopeControl({ projects }: { projects: readonly Project[] }) {
  const search = appRoute.useSearch();
  const changeScope = useChangeScope();
  const scope = readableScope(
    parseProjectScope(search),
    projects.map((p) => p.id),
  );
  return (
    <ProjectScopePicker
      projects={projects}
      value={scope}
      onChange={(next) => changeScope('project', serializeProjectScope(next))}
    />
  );
}
