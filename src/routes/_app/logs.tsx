import { createFileRoute } from '@tanstack/react-router';
import { logsQueries } from '../../api/queries/logs';
import { projectsQueries } from '../../api/queries/projects';
import { LogsPage } from '../../features/logs/logs-page';
import { listFiltersOf, listSearchOf, logsSearchSchema } from '../../features/logs/logs-search';

export const Route = createFileRoute('/_app/logs')({
  validateSearch: logsSearchSchema,
  // The selected log belongs to one project: a change of projects closes it.
  staticData: { scopeBound: { project: ['log'] } },
  // Only what selects the logs reloads the list: opening a log or adding a column does not.
  loaderDeps: ({ search }) => listSearchOf(search),
  loader: async ({ context, deps }) => {
    const projects = await context.queryClient.ensureQueryData(projectsQueries.list());
    const filters = listFiltersOf(
      deps,
      projects.map((p) => p.id),
    );
    // A failed read is shown by the list, beside the filters that can fix it, not instead
    // of the page; the component reads the same query (and its error) from the cache.
    await context.queryClient.ensureInfiniteQueryData(logsQueries.list(filters)).catch(() => {});
  },
  component: LogsPage,
});
