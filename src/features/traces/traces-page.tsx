import { useSuspenseInfiniteQuery, useSuspenseQuery } from '@tanstack/react-query';
import { useTickingNow } from '../../ui/use-ticking-now';
import { useNavigate } from '@tanstack/react-router';
import { useCallback, useMemo } from 'react';
import { projectsQueries } from '../../api/queries/projects';
import { traceQueries, type TraceListFilters } from '../../api/queries/traces';
import { useStableValue } from '../../lib/use-stable-value';
import { Button } from '../../ui/button';
import { EmptyState } from '../../ui/empty-state';
import { TraceIcon } from '../../ui/icons';
import { ListFailure } from '../../ui/list-failure';
import { ListPage } from '../../ui/list-page';
import { PendingState } from '../../ui/pending-state';
import { QueryBoundary } from '../../ui/query-boundary';
import { StateFrame } from '../../ui/state-frame';
import { useDocumentTitle } from '../../ui/use-document-title';
import { useNextPageState } from '../../ui/use-next-page-state';
import { NamingQualityPanel } from './naming-quality-panel';
import { chartCoverageText, traceChartData, type DurationScale } from './trace-chart-data';
import { TraceFilterBar } from './trace-filter-bar';
import { TraceList, type TraceListRow } from './trace-list';
import { TraceScatter, TraceScatterLegend } from './trace-scatter';
import styles from './traces-page.module.css';
import {
  clearedTraceFilters,
  narrowingCount,
  traceDeploymentScope,
  traceFiltersOf,
  type TracesPageSearch,
} from './traces-search';
import { DeploymentMarksSummary } from '../../widgets/deployment-marks/deployment-marks-summary';
import {
  releaseLinkOf,
  type DeploymentMarker,
} from '../../widgets/deployment-marks/deployment-markers';
import { useChartDeployments } from '../../widgets/deployment-marks/use-chart-deployments';
import { useSetTracesSearch, useTracesSearch } from './use-traces-search';

/**
 * `/traces`: trace discovery for the scope and range, filtered by status, service, release,
 * environment and minimum duration (all in the URL). A duration-over-time chart over the whole
 * range that marks the part not loaded yet, the first page's naming quality, and a virtualized
 * list that loads page after page.
 */
export function TracesPage() {
  useDocumentTitle('Traces');
  const search = useTracesSearch();
  const setSearch = useSetTracesSearch();
  const { data: projects } = useSuspenseQuery(projectsQueries.list());
  const readableIds = useMemo(() => projects.map((p) => p.id), [projects]);
  const filters = useStableValue(traceFiltersOf(search, readableIds));
  // A string of the filters: the boundary's reset key and the results' React key.
  const filtersKey = JSON.stringify(filters);
  const narrowed = narrowingCount(search) > 0;

  return (
    <ListPage title="Traces" gap={10} filters={<TraceFilterBar search={search} />}>
      <QueryBoundary
        resetKey={filtersKey}
        pending={
          <StateFrame>
            <PendingState label="Loading traces…" />
          </StateFrame>
        }
        renderError={(error, retry) => (
          <ListFailure
            error={error}
            retry={retry}
            onClearFilters={narrowed ? () => setSearch((p) => clearedTraceFilters(p)) : undefined}
          />
        )}
      >
        <TraceResults
          key={filtersKey}
          filters={filters}
          scale={search.scale ?? 'log'}
          until={search.until}
        />
      </QueryBoundary>
    </ListPage>
  );
}

function TraceResults({
  filters,
  scale,
  until,
}: {
  filters: TraceListFilters;
  scale: DurationScale;
  /** The range's end when the URL closes it; else the read's own start time. */
  until: TracesPageSearch['until'];
}) {
  const navigate = useNavigate();
  const setSearch = useSetTracesSearch();
  const query = useSuspenseInfiniteQuery(traceQueries.list(filters));
  const { data, hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  const traces = useMemo(() => data.pages.flatMap((p) => p.traces), [data]);
  const first = data.pages[0];
  const rangeFrom = first ? Date.parse(first.since) : Number.NaN;
  const closedUntil = until === undefined ? Number.NaN : Date.parse(until);
  const rangeTo = Number.isFinite(closedUntil) ? closedUntil : (first?.readAt ?? Number.NaN);
  const rows: TraceListRow[] = useMemo(
    () => traces.map((t) => ({ id: t.trace_id, trace: t })),
    [traces],
  );
  const chart = useMemo(
    () => traceChartData(traces, scale, { from: rangeFrom, to: rangeTo, complete: !hasNextPage }),
    [traces, scale, rangeFrom, rangeTo, hasNextPage],
  );
  const deployments = useChartDeployments(
    { since: filters.since, until },
    traceDeploymentScope(filters),
    chart.xDomain,
  );
  const openDeployment = useCallback(
    (m: DeploymentMarker) => void navigate(releaseLinkOf(m.deployment)),
    [navigate],
  );
  const longestMs = useMemo(() => Math.max(0, ...traces.map((t) => t.duration_ms)), [traces]);
  const quality = data.pages[0]?.naming_quality;
  const next = useNextPageState(query);
  const now = useTickingNow(30_000);

  const open = useCallback(
    (traceId: string) => void navigate({ to: '/traces/$traceId', params: { traceId } }),
    [navigate],
  );

  if (rows.length === 0) {
    return (
      <StateFrame>
        <EmptyTraces />
      </StateFrame>
    );
  }

  return (
    <>
      <div className={styles.overview}>
        <section className={styles.chartPanel} aria-label="Duration over time">
          <header className={styles.chartHeader}>
            <h2 className={styles.chartTitle}>Duration over time</h2>
            <TraceScatterLegend ok={chart.ok.length} error={chart.error.length} />
            <DeploymentMarksSummary label="Deployments on the trace chart" {...deployments} />
            <label className={styles.scaleToggle}>
              <input
                type="checkbox"
                checked={scale === 'log'}
                onChange={(e) =>
                  setSearch({ scale: e.target.checked ? undefined : 'linear' }, { replace: true })
                }
              />
              Log scale
            </label>
          </header>
          <TraceScatter
            data={chart}
            scale={scale}
            onOpen={open}
            markers={deployments.markers}
            onOpenDeployment={openDeployment}
          />
          <p className={styles.chartCoverage} role="status">
            <span>{chartCoverageText(traces.length, chart)}</span>
            {chart.notLoaded !== null && (
              <Button
                size="sm"
                variant="ghost"
                disabled={isFetchingNextPage}
                onClick={() => void fetchNextPage()}
              >
                {isFetchingNextPage ? 'Loading older traces…' : 'Load older traces'}
              </Button>
            )}
          </p>
        </section>
        {quality !== undefined && <NamingQualityPanel quality={quality} />}
      </div>
      <div className={styles.toolbar}>
        <span className={styles.count}>
          {rows.length.toLocaleString('en-US')} {rows.length === 1 ? 'trace' : 'traces'}, newest
          first
          {hasNextPage ? ' — more load as you scroll' : ''}
        </span>
      </div>
      <TraceList rows={rows} longestMs={longestMs} now={now} next={next} onOpen={open} />
    </>
  );
}

function EmptyTraces() {
  const search = useTracesSearch();
  const setSearch = useSetTracesSearch();
  if (narrowingCount(search) > 0) {
    return (
      <EmptyState
        icon={<TraceIcon />}
        title="No traces match these filters"
        action={
          <Button size="sm" onClick={() => setSearch((p) => clearedTraceFilters(p))}>
            Clear filters
          </Button>
        }
      >
        Nothing in this scope and time range matches every filter. Clear or loosen a filter (a lower
        minimum duration, another status), or widen the time range.
      </EmptyState>
    );
  }
  return (
    <EmptyState icon={<TraceIcon />} title="No traces in this scope and range">
      Traces appear here once your services send spans with a project ingest key. Widen the time
      range in the header or choose other projects.
    </EmptyState>
  );
}
