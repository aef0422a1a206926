import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useMemo } from 'react';
import { ApiError } from '../../api/errors';
import { traceQueries, type TraceSpan, type TraceScope } from '../../api/queries/traces';
import { buttonClass } from '../../ui/button';
import { EmptyState } from '../../ui/empty-state';
import { ErrorState } from '../../ui/error-state';
import { SpanIcon } from '../../ui/icons';
import { PendingState } from '../../ui/pending-state';
import { QueryBoundary } from '../../ui/query-boundary';
import { StateFrame } from '../../ui/state-frame';
import { useDocumentTitle } from '../../ui/use-document-title';
import { serviceColors } from './service-colors';
import { buildSpanTree } from './span-tree';
import styles from './trace-detail.module.css';
import { traceOverview } from './trace-overview';
import { isTraceId, traceReadScope, type TracePageSearch } from './trace-search';
import { TraceSummaryHeader } from './trace-summary-header';
import { TraceWaterfall } from './trace-waterfall';
import { useSetTraceSearch, useTraceSearch } from './use-trace-search';

/**
 * `/traces/$traceId`: the trace's summary and its waterfall (span tree, time axis, minimap,
 * filter, error navigation, span details). The span list decides the page: a failed read is
 * shown with what to do, an empty one says the trace has no spans in this scope.
 */
export function TraceDetailPage({ traceId }: { traceId: string }) {
  useDocumentTitle(`Trace ${traceId.slice(0, 8)}`);
  const search = useTraceSearch();
  const scope = traceReadScope(search);
  const scopeKey = JSON.stringify(scope);

  if (!isTraceId(traceId)) {
    return (
      <div className={styles.page}>
        <StateFrame>
          <EmptyState
            icon={<SpanIcon />}
            title="This is not a trace id"
            action={
              <Link to="/traces" className={buttonClass('secondary', 'sm')}>
                Go to traces
              </Link>
            }
          >
            A trace id is 32 lowercase hexadecimal characters (for example
            4bf92f3577b34da6a3ce929d0e0e4736). Check the link, or find the trace on the traces page.
          </EmptyState>
        </StateFrame>
      </div>
    );
  }

  return (
    <div className={styles.page}>
      <QueryBoundary
        resetKey={`${traceId} ${scopeKey}`}
        pending={
          <StateFrame>
            <PendingState label="Loading the trace…" />
          </StateFrame>
        }
        renderError={(error, retry) => (
          <StateFrame>
            <ErrorState error={error} reset={retry} />
          </StateFrame>
        )}
      >
        <TraceContent traceId={traceId} scope={scope} search={search} />
      </QueryBoundary>
    </div>
  );
}

function TraceContent({
  traceId,
  scope,
  search,
}: {
  traceId: string;
  scope: TraceScope;
  search: TracePageSearch;
}) {
  const { data, dataUpdatedAt } = useSuspenseQuery(traceQueries.spans(traceId, scope));
  if (data.length === 0) return <NoSpans traceId={traceId} />;
  return (
    <TraceLoaded
      // A new read (other data) starts a new view: collapse and focus refer to tree positions.
      key={dataUpdatedAt}
      traceId={traceId}
      scope={scope}
      spans={data}
      search={search}
    />
  );
}

function TraceLoaded({
  traceId,
  scope,
  spans,
  search,
}: {
  traceId: string;
  scope: TraceScope;
  spans: TraceSpan[];
  search: TracePageSearch;
}) {
  const setSearch = useSetTraceSearch();
  const summaryQuery = useQuery(traceQueries.summary(traceId, scope));
  const summary = summaryQuery.data ?? null;
  const tree = useMemo(() => buildSpanTree(spans), [spans]);
  // Several projects are read one by one: figures that follow parent links across them are
  // counted from the spans, and only the issues come from the combined summaries.
  const combined = scope.project_ids !== undefined;
  const overview = useMemo(
    () =>
      combined
        ? { ...traceOverview(tree, null), issues: summary?.issues ?? [] }
        : traceOverview(tree, summary),
    [combined, tree, summary],
  );
  const colors = useMemo(
    () => serviceColors(overview.services.map((s) => s.service_name)),
    [overview.services],
  );
  const summaryProblem = summaryQuery.isError ? summaryProblemOf(summaryQuery.error) : null;

  return (
    <>
      <TraceSummaryHeader
        traceId={traceId}
        overview={overview}
        summary={summary}
        startedAt={new Date(tree.startMs).toISOString()}
        colors={colors}
        summaryProblem={summaryProblem}
        highlightPath={search.slowest === true}
        onHighlightPath={(on) => setSearch({ slowest: on || undefined }, { replace: true })}
      />
      <TraceWaterfall
        traceId={traceId}
        tree={tree}
        overview={overview}
        colors={colors}
        summary={summary}
        search={search}
      />
    </>
  );
}

function summaryProblemOf(error: unknown): string {
  const detail =
    error instanceof ApiError
      ? `HTTP ${error.status}${error.code ? ` ${error.code}` : ''}`
      : 'the request failed';
  return `The trace summary could not be read (${detail}): the figures above are counted from the spans, and the slowest path and linked issues are not shown. Reload the page to try again.`;
}

function NoSpans({ traceId }: { traceId: string }) {
  return (
    <StateFrame>
      <EmptyState
        icon={<SpanIcon />}
        title={`No spans of trace ${traceId} in the selected scope`}
        action={
          <Link to="/traces" className={buttonClass('secondary', 'sm')}>
            Go to traces
          </Link>
        }
      >
        No span with this trace id was received in the projects you chose (or with the release and
        environment in the link). Check the project scope at the top of the page, choose all
        projects, or find the trace on the traces page. Spans older than the project&apos;s
        retention are no longer kept.
      </EmptyState>
    </StateFrame>
  );
}
