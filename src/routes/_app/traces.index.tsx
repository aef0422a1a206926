import { createFileRoute } from '@tanstack/react-router';
import { projectsQueries } from '../../api/queries/projects';
import { traceQueries } from '../../api/queries/traces';
import { TracesPage } from '../../features/traces/traces-page';
import {
  listSearchOf,
  traceFiltersOf,
  tracesSearchSchema,
} from '../../features/traces/traces-search';

export const Route = createFileRoute('/_app/traces/')({
  validateSearch: tracesSearchSchema,
  // The chart's scale does not reload the list.
  loaderDeps: ({ search }) => listSearchOf(search),
  loader: async ({ context, deps }) => {
    const projects = await context.queryClient.ensureQueryData(projectsQueries.list());
    const filters = traceFiltersOf(
      deps,
      projects.map((p) => p.id),
    );
    // A refused or failed read is shown by the list, beside the filters that can fix it.
    await context.queryClient.ensureInfiniteQueryData(traceQueries.list(filters)).catch(() => {});
  },
  component: TracesPage,
});
