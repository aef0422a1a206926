import { getRouteApi } from '@tanstack/react-router';
import type { Project } from '../../api/queries/projects';
import { parseProjectScope, readableScope, serializeProjectScope } from '../../lib/project-scope';
import { ProjectScopePicker } from '../../ui/project-scope-picker';

const appRoute = getRouteApi('/_app');

/** The project scope picker, kept in the layout's URL search (`project` / `projects`). */
export function ScopeControl({ projects }: { projects: readonly Project[] }) {
  const search = appRoute.useSearch();
  const navigate = appRoute.useNavigate();
  const scope = readableScope(
    parseProjectScope(search),
    projects.map((p) => p.id),
  );
  return (
    <ProjectScopePicker
      projects={projects}
      value={scope}
      onChange={(next) =>
        void navigate({
          to: '.',
          search: (prev) => ({ ...prev, ...serializeProjectScope(next) }),
        })
      }
    />
  );
}
