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
    // The overview is the first thing the page shows: only it holds the page back. The
    // other sections start reading now and show their own pending state and failure
    // beside their own controls (they read the same queries from the cache).
    void queryClient.prefetchQuery(analyticsQueries.properties(reads.properties));
    void queryClient.prefetchQuery(analyticsQueries.retention(reads.retention));
    void queryClient.prefetchQuery(analyticsQueries.paths(reads.paths));
    void queryClient.prefetchQuery(analyticsQueries.lifecycle(reads.lifecycle));
    await queryClient.ensureQueryData(analyticsQueries.overview(reads.overview)).catch(() => {});
  },
  component: AnalyticsOverviewPage,
});
