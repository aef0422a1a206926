import { createFileRoute } from '@tanstack/react-router';
import { usageQueries } from '../../api/queries/account';
import { PlanPage } from '../../features/plan/plan-page';

export const Route = createFileRoute('/_app/plan')({
  // A failed read is shown by the page (its error and `next`, or sign-in), never as a free plan,
  // so the loader only starts the read and does not fail the route.
  loader: ({ context }) =>
    Promise.all([
      context.queryClient.ensureQueryData(usageQueries.subscription()).catch(() => undefined),
      context.queryClient.ensureQueryData(usageQueries.current()).catch(() => undefined),
    ]),
  component: PlanPage,
});
