import { createFileRoute } from '@tanstack/react-router';
import { issueDetailQueries } from '../../api/queries/issue-detail';
import { IssueDetailError } from '../../features/issue-detail/issue-detail-error';
import { IssueDetailPage } from '../../features/issue-detail/issue-detail-page';

export const Route = createFileRoute('/_app/issues/$issueId')({
  loader: async ({ context, params }) => {
    const { queryClient } = context;
    // The issue decides the page (an unknown one is "issue not found"); the latest
    // occurrence loads beside it and, when it fails, is shown failing in its own section.
    const occurrence = queryClient
      .ensureQueryData(issueDetailQueries.occurrence(params.issueId, null))
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
