import { createFileRoute } from '@tanstack/react-router';
import { traceQueries } from '../../api/queries/traces';
import { TraceDetailPage } from '../../features/trace-detail/trace-detail-page';
import {
  isTraceId,
  traceReadScope,
  traceSearchSchema,
} from '../../features/trace-detail/trace-search';

export const Route = createFileRoute('/_app/traces/$traceId')({
  validateSearch: traceSearchSchema,
  // Only what selects the spans reloads them: the filter, the selected span and the
  // highlight do not.
  loaderDeps: ({ search }) => traceReadScope(search),
  loader: async ({ context, params, deps }) => {
    if (!isTraceId(params.traceId)) return;
    const { queryClient } = context;
    // Failures are shown by the page, which reads the same queries from the cache: the spans
    // decide it; the summary loads beside them (not waited for) and may fail on its own
    // (`404 trace not found` when no span matches).
    void queryClient.prefetchQuery(traceQueries.summary(params.traceId, deps));
    await queryClient.ensureQueryData(traceQueries.spans(params.traceId, deps)).catch(() => {});
  },
  component: TraceDetailRoute,
});

function TraceDetailRoute() {
  const { traceId } = Route.useParams();
  return <TraceDetailPage key={traceId} traceId={traceId} />;
}
