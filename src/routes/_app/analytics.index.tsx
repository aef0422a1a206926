import { createFileRoute } from '@tanstack/react-router';
import { analyticsQueries } from '../../api/queries/analytics';
import { projectsQueries } from '../../api/queries/projects';
import { AnalyticsOverviewPage } from '../../features/analytics-overview/analytics-overview-page';
import { analyticsReads } from '../../features/analytics-overview/analytics-reads';
import { analyticsOverviewSearchSchema } from '../../features/analytics-overview/analytics-overview-search';

export const Route = createFileRoute('/_app/analytics/')({
  validateSearch: analyticsOverviewSearchSchema,
  loaderDeps: ({ search }) => search,
  loader: async ({ context, deps }) => {
    const { queryClient } = context;
    const projects = await queryClient.ensureQueryData(projectsQueries.list());
    const reads = analyticsReads(
      deps,
      projects.map((p) => p.id),
      Date.now(),
    );
    if (reads.kind !== 'read') return;
    // Each section shows its own failure beside its own controls, not instead of the page;
    // the sections read the same queries (and their errors) from the cache.
    await Promise.all(
      [
        queryClient.ensureQueryData(analyticsQueries.overview(reads.overview)),
        queryClient.ensureQueryData(analyticsQueries.properties(reads.properties)),
        queryClient.ensureQueryData(analyticsQueries.retention(reads.retention)),
        queryClient.ensureQueryData(analyticsQueries.paths(reads.paths)),
        queryClient.ensureQueryData(analyticsQueries.lifecycle(reads.lifecycle)),
      ].map((p) => p.catch(() => {})),
    );
  },
  component: AnalyticsOverviewPage,
});
