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
    // A failed read is shown by its chart, beside the controls that can fix it, not instead
    // of the page; the components read the same queries (and their errors) from the cache.
    await Promise.all(
      [
        ...volume.reads.map((p) => queryClient.ensureQueryData(metricQueries.volume(p))),
        queryClient.ensureQueryData(deploymentQueries.range(volume.deployments)),
        explorer.names && queryClient.ensureQueryData(metricQueries.names(explorer.names)),
        explorer.series && queryClient.ensureQueryData(metricQueries.series(explorer.series)),
        explorer.deployments &&
          queryClient.ensureQueryData(deploymentQueries.range(explorer.deployments)),
      ].map((p) => (p ? p.catch(() => {}) : undefined)),
    );
  },
  component: MetricsPage,
});
