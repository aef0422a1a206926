import { createFileRoute } from '@tanstack/react-router';
import { analyticsQueries } from '../../api/queries/analytics';
import { projectsQueries } from '../../api/queries/projects';
import { actionChoicesParams } from '../../features/funnels/action-choices';
import { planFunnel } from '../../features/funnels/funnel-plan';
import { FunnelsPage } from '../../features/funnels/funnels-page';
import { funnelsSearchSchema } from '../../features/funnels/funnels-search';

export const Route = createFileRoute('/_app/analytics/funnels')({
  validateSearch: funnelsSearchSchema,
  loaderDeps: ({ search }) => search,
  loader: async ({ context, deps }) => {
    const { queryClient } = context;
    const projects = await queryClient.ensureQueryData(projectsQueries.list());
    const plan = planFunnel(
      deps,
      projects.map((p) => p.id),
      Date.now(),
    );
    const choices = actionChoicesParams(deps, plan);
    // A failed read is shown beside the form that can fix it, not instead of the page.
    await Promise.all(
      [
        choices && queryClient.ensureQueryData(analyticsQueries.overview(choices)),
        plan.request && queryClient.ensureQueryData(analyticsQueries.funnel(plan.request)),
        ...(plan.comparison?.sides ?? []).map((s) =>
          queryClient.ensureQueryData(analyticsQueries.funnel(s.request)),
        ),
      ].map((p) => (p ? p.catch(() => {}) : undefined)),
    );
  },
  component: FunnelsPage,
});
