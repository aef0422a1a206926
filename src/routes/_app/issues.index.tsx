import { createFileRoute } from '@tanstack/react-router';
import { issuesQueries } from '../../api/queries/issues';
import { projectsQueries } from '../../api/queries/projects';
import { IssuesPage } from '../../features/issues/issues-page';
import { issueFiltersOf, issuesSearchSchema } from '../../features/issues/issues-search';

export const Route = createFileRoute('/_app/issues/')({
  validateSearch: issuesSearchSchema,
  // The client-side sort does not reload the list.
  loaderDeps: ({ search }) => ({ ...search, sort: undefined }),
  loader: async ({ context, deps }) => {
    const projects = await context.queryClient.ensureQueryData(projectsQueries.list());
    const filters = issueFiltersOf(
      deps,
      projects.map((p) => p.id),
    );
    // A failed read is shown by the board beside the filters, not instead of the page.
    await context.queryClient.ensureInfiniteQueryData(issuesQueries.list(filters)).catch(() => {});
  },
  component: IssuesPage,
});
