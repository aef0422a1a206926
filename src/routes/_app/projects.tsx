import { useSuspenseQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { accountQueries } from '../../api/queries/account';
import { projectsQueries } from '../../api/queries/projects';
import { ProjectsPage } from '../../features/projects/projects-page';

export const Route = createFileRoute('/_app/projects')({
  loader: ({ context }) => context.queryClient.ensureQueryData(projectsQueries.list()),
  component: ProjectsRoute,
});

function ProjectsRoute() {
  const { data: projects } = useSuspenseQuery(projectsQueries.list());
  const { data: account } = useSuspenseQuery(accountQueries.me());
  return <ProjectsPage projects={projects} account={account} />;
}
