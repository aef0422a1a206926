import { createFileRoute } from '@tanstack/react-router';
import { alertQueries } from '../../api/queries/alerts';
import { RulePage } from '../../features/alerts/rule-page';

export const Route = createFileRoute('/_app/alerts/rules/$ruleId')({
  // A failed read (a deleted rule, no access) is shown by the page with the service's words.
  loader: ({ context, params }) =>
    context.queryClient.ensureQueryData(alertQueries.rule(params.ruleId)).catch(() => undefined),
  component: RulePage,
});
