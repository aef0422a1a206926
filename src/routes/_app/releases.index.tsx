import { createFileRoute } from '@tanstack/react-router';
import { projectsQueries } from '../../api/queries/projects';
import { deploymentQueries, releaseQueries } from '../../api/queries/releases';
import { deploymentScopeOf } from '../../features/releases/release-list-data';
import { ReleasesPage } from '../../features/releases/releases-page';
import { releaseFiltersOf, releasesSearchSchema } from '../../features/releases/releases-search';

export const Route = createFileRoute('/_app/releases/')({
  validateSearch: releasesSearchSchema,
  loaderDeps: ({ search }) => search,
  loader: async ({ context, deps }) => {
    const { queryClient } = context;
    const projects = await queryClient.ensureQueryData(projectsQueries.list());
    const filters = releaseFiltersOf(
      deps,
      projects.map((p) => p.id),
    );
    // The deployments load beside the rows (each row shows its latest one when they arrive).
    void queryClient.prefetchQuery(deploymentQueries.history(deploymentScopeOf(filters)));
    // A failed read is shown by the list beside the filters, not instead of the page.
    await queryClient.ensureInfiniteQueryData(releaseQueries.list(filters)).catch(() => {});
  },
  component: ReleasesPage,
});
