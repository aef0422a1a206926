import { createFileRoute } from '@tanstack/react-router';
import { usageQueries } from '../../api/queries/account';
import { projectsQueries } from '../../api/queries/projects';
import { UsagePage } from '../../features/usage/usage-page';
import { intervalOf, usageSearchSchema } from '../../features/usage/usage-search';

export const Route = createFileRoute('/_app/usage')({
  validateSearch: usageSearchSchema,
  loaderDeps: ({ search }) => ({ interval: intervalOf(search) }),
  loader: async ({ context, deps }) => {
    const { queryClient } = context;
    // A failed read is shown by its part of the page (an error, never zeros), not instead of it.
    await Promise.all(
      [
        queryClient.ensureQueryData(projectsQueries.list()),
        queryClient.ensureQueryData(usageQueries.current()),
        queryClient.ensureQueryData(usageQueries.history(deps.interval)),
        queryClient.ensureQueryData(usageQueries.subscription()),
      ].map((p) => p.catch(() => {})),
    );
  },
  component: UsagePage,
});
