import { createFileRoute } from '@tanstack/react-router';
import { issueDetailQueries } from '../../api/queries/issue-detail';
import { IssueDetailError } from '../../features/issue-detail/issue-detail-error';
import { IssueDetailPage } from '../../features/issue-detail/issue-detail-page';
import { issueSearchSchema, occurrenceOf } from '../../features/issue-detail/issue-search';

export const Route = createFileRoute('/_app/issues/$issueId')({
  validateSearch: issueSearchSchema,
  // Only the occurrence read reloads: how its stack is shown does not.
  loaderDeps: ({ search }) => ({ cursor: occurrenceOf(search).cursor }),
  loader: async ({ context, params, deps }) => {
    const { queryClient } = context;
    // The issue decides the page (an unknown one is "issue not found"); the occurrence the URL
    // names (the latest by default) loads beside it and, when it fails, is shown failing in
    // its own section.
    const occurrence = queryClient
      .ensureQueryData(issueDetailQueries.occurrence(params.issueId, deps.cursor))
      .catch(() => {});
    await queryClient.ensureQueryData(issueDetailQueries.detail(params.issueId));
    await occurrence;
  },
  component: IssueDetailRoute,
  errorComponent: IssueDetailError,
});

function IssueDetailRoute() {
  const { issueId } = Route.useParams();
  return <IssueDetailPage key={issueId} issueId={issueId} />;
}
