import { useQuery, useSuspenseInfiniteQuery, useSuspenseQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useCallback, useMemo, useState } from 'react';
import { logsQueries, type CatalogParams, type LogListFilters } from '../../api/queries/logs';
import { projectsQueries } from '../../api/queries/projects';
import type { AttributeFilter } from '../../lib/attribute-filter';
import { parseProjectScope, readableScope } from '../../lib/project-scope';
import { useStableValue } from '../../lib/use-stable-value';
import { useLiveStatus } from '../../live/live-store';
import { Button, buttonClass } from '../../ui/button';
import { EmptyState } from '../../ui/empty-state';
import { ErrorState } from '../../ui/error-state';
import { LogIcon } from '../../ui/icons';
import { ListPage } from '../../ui/list-page';
import { PendingState } from '../../ui/pending-state';
import { QueryBoundary } from '../../ui/query-boundary';
import { StaleNotice } from '../../ui/stale-notice';
import { StateFrame } from '../../ui/state-frame';
import { useNextPageState } from '../../ui/use-next-page-state';
import { useDocumentTitle } from '../../ui/use-document-title';
import { AttributeFilterBar } from '../../widgets/attribute-filters/attribute-filter-bar';
import { ColumnPicker } from './column-picker';
import { rangeIsOpen, tailView, type TailFilter } from './live-logs';
import { LogDetailPanel } from './log-detail-panel';
import { LogFilterBar } from './log-filter-bar';
import { LogList } from './log-list';
import {
  clearedFilters,
  listFiltersOf,
  listSearchOf,
  narrowingFilterCount,
  type LogsPageSearch,
} from './logs-search';
import styles from './logs-page.module.css';
import { useLiveLogs } from './use-live-logs';
import { useLogsSearch, useSetLogsSearch } from './use-logs-search';

const NO_FILTERS: readonly AttributeFilter[] = [];
const NO_COLUMNS: readonly string[] = [];

/**
 * `/logs`: the logs of the scope and range, filtered by severity, status, service, release,
 * environment, trace, message text and attributes; a virtualized list that loads page after
 * page and takes live logs at the top; the selected log's details beside it.
 */
export function LogsPage() {
  useDocumentTitle('Logs');
  const search = useLogsSearch();
  const setSearch = useSetLogsSearch();
  const { data: projects } = useSuspenseQuery(projectsQueries.list());
  const readableIds = useMemo(() => projects.map((p) => p.id), [projects]);

  const filters = useStableValue(listFiltersOf(listSearchOf(search), readableIds));
  // A string of the filters: the boundary's reset key and the results' React key.
  const filtersKey = JSON.stringify(filters);
  const catalog: CatalogParams = useMemo(
    () => ({
      ...(filters.project_id ? { project_id: filters.project_id } : {}),
      ...(filters.project_ids ? { project_ids: filters.project_ids } : {}),
      since: filters.since,
    }),
    [filters],
  );
  const scope = readableScope(parseProjectScope(search), readableIds);
  const projectIds = useStableValue(scope.kind === 'all' ? null : scope.ids);
  const attributeFilters = search.filters ?? NO_FILTERS;
  const columns = search.columns ?? NO_COLUMNS;
  const setFilters = (next: AttributeFilter[]) =>
    setSearch({ filters: next.length > 0 ? next : undefined });
  const setColumns = (next: string[]) => setSearch({ columns: next.length > 0 ? next : undefined });

  return (
    <ListPage
      title="Logs"
      gap={10}
      titleActions={
        // The view's own URL keys become the new log rule's query (see `/alerts/new`).
        <Link
          to="/alerts/new"
          search={{
            kind: 'log',
            severity: search.severity,
            status: search.status,
            q: search.q,
            service: search.service,
            release: search.release,
            environment: search.environment,
            trace_id: search.trace_id,
            filters: search.filters,
          }}
          className={buttonClass('secondary', 'sm')}
        >
          Create alert from this view
        </Link>
      }
      filters={
        <div className={styles.filters}>
          <LogFilterBar search={search} />
          <AttributeFilterBar filters={attributeFilters} catalog={catalog} onChange={setFilters} />
        </div>
      }
    >
      <div className={styles.body}>
        <div className={styles.results}>
          <QueryBoundary
            resetKey={filtersKey}
            pending={
              <StateFrame>
                <PendingState label="Loading logs…" />
              </StateFrame>
            }
            renderError={(error, retry) => (
              <StateFrame>
                <ErrorState error={error} reset={retry} />
              </StateFrame>
            )}
          >
            <LogResults
              key={filtersKey}
              filters={filters}
              search={search}
              projectIds={projectIds}
              attributeFilters={attributeFilters}
              columns={columns}
              catalog={catalog}
              onColumnsChange={setColumns}
            />
          </QueryBoundary>
        </div>
        {search.log !== undefined && (
          <LogDetailPanel
            key={search.log}
            logId={search.log}
            projects={projects}
            filters={attributeFilters}
            columns={columns}
            onClose={() => setSearch({ log: undefined })}
            onFiltersChange={setFilters}
            onColumnsChange={setColumns}
          />
        )}
      </div>
    </ListPage>
  );
}

function LogResults({
  filters,
  search,
  projectIds,
  attributeFilters,
  columns,
  catalog,
  onColumnsChange,
}: {
  filters: LogListFilters;
  search: LogsPageSearch;
  projectIds: readonly string[] | null;
  attributeFilters: readonly AttributeFilter[];
  columns: readonly string[];
  catalog: CatalogParams;
  onColumnsChange: (columns: string[]) => void;
}) {
  const setSearch = useSetLogsSearch();
  const query = useSuspenseInfiniteQuery(logsQueries.list(filters));
  const { data, hasNextPage } = query;
  const fetched = useMemo(() => data.pages.flatMap((p) => p.logs), [data]);
  const since = data.pages[0]?.since ?? filters.since;
  const open = rangeIsOpen(filters.until, query.dataUpdatedAt);
  // Live rows meet attribute filters only where the service's index would (its limits).
  const coverage = useQuery({
    ...logsQueries.coverage(catalog),
    enabled: attributeFilters.length > 0,
  });
  const indexLimits = coverage.data?.index_limits;
  const tail: TailFilter | null = useMemo(
    () => (open ? { filters, since, projectIds, attributeFilters, indexLimits } : null),
    [open, filters, since, projectIds, attributeFilters, indexLimits],
  );
  const live = useLiveLogs(tail);
  const [frozen, setFrozen] = useState<ReadonlySet<string> | null>(null);
  const view = useMemo(() => tailView(fetched, live, frozen), [fetched, live, frozen]);

  const selectLog = useCallback((log: string) => setSearch({ log }), [setSearch]);
  const next = useNextPageState(query);

  return (
    <>
      <div className={styles.toolbar}>
        <TailStatus open={open} paused={frozen !== null} until={filters.until} />
        <span className={styles.count}>
          {view.rows.length.toLocaleString('en-US')} {view.rows.length === 1 ? 'log' : 'logs'}
          {hasNextPage ? ' loaded, more as you scroll' : ''}
        </span>
        <span className={styles.toolbarEnd}>
          <ColumnPicker catalog={catalog} columns={columns} onChange={onColumnsChange} />
        </span>
      </div>
      <StaleNotice
        what="logs"
        readAt={query.dataUpdatedAt}
        refetchError={query.isRefetchError ? query.error : null}
        onRetry={() => void query.refetch()}
      />
      {view.rows.length === 0 ? (
        <StateFrame>
          <EmptyLogs search={search} live={open} />
        </StateFrame>
      ) : (
        <LogList
          rows={view.rows}
          columns={columns}
          selectedId={search.log}
          onSelect={selectLog}
          onRemoveColumn={(path) => onColumnsChange(columns.filter((c) => c !== path))}
          next={next}
          paused={frozen !== null}
          pending={view.pending}
          onScrollAway={() => setFrozen(new Set(live.map((l) => l.id)))}
          onBackToTop={() => setFrozen(null)}
        />
      )}
    </>
  );
}

function TailStatus({
  open,
  paused,
  until,
}: {
  open: boolean;
  paused: boolean;
  until: string | undefined;
}) {
  const status = useLiveStatus();
  let text: string;
  let state: 'on' | 'paused' | 'off';
  if (!open) {
    text = `Live tail off: the range ended ${until ? 'before now' : ''}`.trim();
    state = 'off';
  } else if (status !== 'live') {
    text = status === 'stopped' ? 'Live tail stopped' : 'Live tail reconnecting…';
    state = 'off';
  } else if (paused) {
    text = 'Live tail paused while you scroll';
    state = 'paused';
  } else {
    text = 'Live tail on';
    state = 'on';
  }
  return (
    <span className={styles.tail} data-state={state} role="status">
      <span className={styles.tailDot} aria-hidden="true" />
      {text}
    </span>
  );
}

function EmptyLogs({ search, live }: { search: LogsPageSearch; live: boolean }) {
  const setSearch = useSetLogsSearch();
  const narrowed = narrowingFilterCount(listSearchOf(search)) > 0;
  const waiting = live ? ' New logs that match appear here as they arrive.' : '';
  if (search.status === 'ignored' && narrowingFilterCount(listSearchOf(search)) === 1) {
    return (
      <EmptyState icon={<LogIcon />} title="No ignored logs in this range">
        A log is ignored by a triage rule, set from a log’s details. Ignored logs leave the active
        list and are read here.
      </EmptyState>
    );
  }
  if (narrowed) {
    return (
      <EmptyState
        icon={<LogIcon />}
        title="No logs match these filters"
        action={
          <Button size="sm" onClick={() => setSearch((prev) => clearedFilters(prev))}>
            Clear filters
          </Button>
        }
      >
        Nothing in this scope and time range matches every filter. Remove a filter or widen the time
        range.
        {search.filters
          ? ' Attribute filters only match logs whose attributes are indexed (see the coverage).'
          : ''}
        {waiting}
      </EmptyState>
    );
  }
  return (
    <EmptyState icon={<LogIcon />} title="No logs in this range">
      Logs appear here once your services send them with a project ingest key. Widen the time range
      or choose other projects.{waiting}
    </EmptyState>
  );
}
