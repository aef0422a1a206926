import { createFileRoute } from '@tanstack/react-router';
import { projectsQueries } from '../../api/queries/projects';
import { deploymentQueries, releaseQueries } from '../../api/queries/releases';
import { ReleasePage } from '../../features/releases/release-page';
import {
  releaseRowFiltersOf,
  releaseSearchSchema,
  rowSearchOf,
} from '../../features/releases/release-search';

export const Route = createFileRoute('/_app/releases/$release')({
  validateSearch: releaseSearchSchema,
  // The highlighted deployment is one project's: a change of projects lets it go.
  staticData: { scopeBound: { project: ['deployment'] } },
  // Only what names the row reloads it: the highlighted deployment does not.
  loaderDeps: ({ search }) => rowSearchOf(search),
  loader: async ({ context, params, deps }) => {
    const { queryClient } = context;
    const projects = await queryClient.ensureQueryData(projectsQueries.list());
    const filters = releaseRowFiltersOf(
      params.release,
      deps,
      projects.map((p) => p.id),
    );
    // The deployment timeline and the comparison read the project's deployments: start now.
    if (filters.project_id !== undefined) {
      void queryClient.prefetchQuery(deploymentQueries.history({ project_id: filters.project_id }));
    }
    // A failed read is shown by the page (with the service's `error` and `next`).
    await queryClient.ensureQueryData(releaseQueries.rows(filters)).catch(() => {});
  },
  component: ReleaseRoute,
});

function ReleaseRoute() {
  const { release } = Route.useParams();
  return <ReleasePage key={release} release={release} />;
}
