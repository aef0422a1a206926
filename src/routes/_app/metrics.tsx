import { createFileRoute } from '@tanstack/react-router';
import { metricQueries } from '../../api/queries/metrics';
import { projectsQueries } from '../../api/queries/projects';
import { deploymentQueries } from '../../api/queries/releases';
import { MetricsPage } from '../../features/metrics/metrics-page';
import { metricsReads } from '../../features/metrics/metrics-reads';
import { metricsSearchSchema } from '../../features/metrics/metrics-search';

export const Route = createFileRoute('/_app/metrics')({
  validateSearch: metricsSearchSchema,
  // Which volume streams are drawn does not change any read.
  loaderDeps: ({ search }) => ({ ...search, streams: undefined }),
  loader: async ({ context, deps }) => {
    const { queryClient } = context;
    const projects = await queryClient.ensureQueryData(projectsQueries.list());
    const reads = metricsReads(
      deps,
      projects.map((p) => p.id),
      Date.now(),
    );
    const { volume, explorer } = reads;
    // The volume chart tops the page: only its reads hold the page back. The explorer's
    // start now and show their own pending state below. A failed read is shown by its chart,
    // beside the controls that can fix it, not instead of the page; the components read the
    // same queries (and their errors) from the cache.
    if (explorer.names) void queryClient.prefetchQuery(metricQueries.names(explorer.names));
    if (explorer.series) void queryClient.prefetchQuery(metricQueries.series(explorer.series));
    if (explorer.deployments)
      void queryClient.prefetchQuery(deploymentQueries.range(explorer.deployments));
    await Promise.all(
      [
        ...volume.reads.map((p) => queryClient.ensureQueryData(metricQueries.volume(p))),
        queryClient.ensureQueryData(deploymentQueries.range(volume.deployments)),
      ].map((p) => p.catch(() => {})),
    );
  },
  component: MetricsPage,
});
