import { useSuspenseQuery } from '@tanstack/react-query';
import { createFileRoute, Outlet, retainSearchParams } from '@tanstack/react-router';
import { z } from 'zod/mini';
import { accountQueries } from '../api/queries/account';
import { projectsQueries } from '../api/queries/projects';
import { ensureSession } from '../api/session';
import { AppError } from '../features/app-shell/app-error';
import { AppLayout } from '../features/app-shell/app-layout';
import { isProjectIdList } from '../lib/project-scope';
import { searchMatching, searchUuid } from '../lib/search-fields';
import { LiveFeed } from '../live/live-feed';
import { isRfc3339, isSinceValue } from '../lib/time-range';

/**
 * The signed-in layout. Its search holds what every page shares: the project scope
 * (`project` or `projects`; absent = all readable) and the time range (`since`, `until`).
 * Invalid values fall back to the defaults instead of failing the page.
 */
const appSearchSchema = z.object({
  project: searchUuid(),
  projects: searchMatching(isProjectIdList),
  since: searchMatching(isSinceValue),
  until: searchMatching(isRfc3339),
});

export const Route = createFileRoute('/_app')({
  validateSearch: appSearchSchema,
  search: { middlewares: [retainSearchParams(['project', 'projects', 'since', 'until'])] },
  beforeLoad: ({ location }) => ensureSession(location),
  loader: ({ context }) =>
    Promise.all([
      context.queryClient.ensureQueryData(accountQueries.me()),
      context.queryClient.ensureQueryData(projectsQueries.list()),
    ]),
  component: AppRoute,
  errorComponent: AppError,
});

function AppRoute() {
  const { data: account } = useSuspenseQuery(accountQueries.me());
  const { data: projects } = useSuspenseQuery(projectsQueries.list());
  return (
    <>
      {/* One live-feed connection per signed-in console. */}
      <LiveFeed />
      <AppLayout account={account} projects={projects}>
        <Outlet />
      </AppLayout>
    </>
  );
}
