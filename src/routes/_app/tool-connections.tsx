import { createFileRoute } from '@tanstack/react-router';
import { projectsQueries } from '../../api/queries/projects';
import { toolConnectionQueries } from '../../api/queries/tool-connections';
import { ToolConnectionsPage } from '../../features/tool-connections/tool-connections-page';

export const Route = createFileRoute('/_app/tool-connections')({
  // A failed read is shown by the page (its error and `next`), never as an empty list, so the
  // loader only starts the reads and does not fail the route.
  loader: ({ context }) =>
    Promise.all([
      context.queryClient.ensureQueryData(toolConnectionQueries.list()).catch(() => undefined),
      context.queryClient.ensureQueryData(projectsQueries.list()).catch(() => undefined),
    ]),
  component: ToolConnectionsPage,
});
