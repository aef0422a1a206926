import {
  useQuery,
  useQueryClient,
  useSuspenseInfiniteQuery,
  useSuspenseQuery,
} from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useCallback, useMemo } from 'react';
import { projectsQueries } from '../../api/queries/projects';
import {
  deploymentQueries,
  releaseQueries,
  type ReleaseListFilters,
  type ReleaseRow,
} from '../../api/queries/releases';
import { useStableValue } from '../../lib/use-stable-value';
import { useLiveRefresh } from '../../live/use-live-refresh';
import { Button } from '../../ui/button';
import { EmptyState } from '../../ui/empty-state';
import { InfoIcon } from '../../ui/icons';
import { ListFailure } from '../../ui/list-failure';
import { ListPage } from '../../ui/list-page';
import { PendingState } from '../../ui/pending-state';
import { QueryBoundary } from '../../ui/query-boundary';
import { StateFrame } from '../../ui/state-frame';
import { useDocumentTitle } from '../../ui/use-document-title';
import { useNextPageState } from '../../ui/use-next-page-state';
import { latestDeploymentsByRow } from './deployment-match';
import { liveEventTouchesReleases } from './live-release-match';
import { ReleaseFilterBar } from './release-filter-bar';
import { ReleaseList, type DeploymentLookup, type ReleaseListRow } from './release-list';
import { deploymentScopeOf } from './release-list-data';
import { releaseRowKey } from './release-view';
import styles from './releases-page.module.css';
import { clearedReleaseFilters, narrowingCount, releaseFiltersOf } from './releases-search';
import { useReleasesSearch, useSetReleasesSearch } from './use-releases-search';

/**
 * `/releases`: one row per project, release, environment and service seen in the scope and
 * range (compared with each row's last event), with its counts, trace health and latest
 * deployment. Exact service, release and environment filters live in the URL.
 */
export function ReleasesPage() {
  useDocumentTitle('Releases');
  const search = useReleasesSearch();
  const setSearch = useSetReleasesSearch();
  const { data: projects } = useSuspenseQuery(projectsQueries.list());
  const readableIds = useMemo(() => projects.map((p) => p.id), [projects]);
  const filters = useStableValue(releaseFiltersOf(search, readableIds));
  // A string of the filters: the boundary's reset key and the results' React key.
  const filtersKey = JSON.stringify(filters);
  const narrowed = narrowingCount(search) > 0;

  return (
    <ListPage title="Releases" gap={10} filters={<ReleaseFilterBar search={search} />}>
      <QueryBoundary
        resetKey={filtersKey}
        pending={
          <StateFrame>
            <PendingState label="Loading releases…" />
          </StateFrame>
        }
        renderError={(error, retry) => (
          <ListFailure
            error={error}
            retry={retry}
            onClearFilters={narrowed ? () => setSearch((p) => clearedReleaseFilters(p)) : undefined}
          />
        )}
      >
        <ReleaseResults
          key={filtersKey}
          filters={filters}
          untilIgnored={search.until !== undefined}
        />
      </QueryBoundary>
    </ListPage>
  );
}

function ReleaseResults({
  filters,
  untilIgnored,
}: {
  filters: ReleaseListFilters;
  untilIgnored: boolean;
}) {
  const navigate = useNavigate();
  const query = useSuspenseInfiniteQuery(releaseQueries.list(filters));
  const { data: projects } = useSuspenseQuery(projectsQueries.list());
  const history = useQuery(deploymentQueries.history(deploymentScopeOf(filters)));
  const next = useNextPageState(query);
  const { data, hasNextPage } = query;
  // Rows are counted by the service from many records: new telemetry of the scope re-reads
  // them (a new release appears, counts and last seen move).
  const client = useQueryClient();
  useLiveRefresh(
    (event) => liveEventTouchesReleases(event, filters),
    () => void client.invalidateQueries({ queryKey: releaseQueries.list(filters).queryKey }),
  );

  const multiProject = filters.project_id === undefined && projects.length > 1;
  const rows: ReleaseListRow[] = useMemo(() => {
    const names = new Map(projects.map((p) => [p.id, p.name]));
    return data.pages
      .flatMap((p) => p.releases)
      .map((release) => ({
        id: releaseRowKey(release),
        release,
        projectName: multiProject ? (names.get(release.project_id) ?? release.project_id) : null,
      }));
  }, [data, projects, multiProject]);

  const deployments: DeploymentLookup = useMemo(() => {
    if (history.isError) return { state: 'failed' };
    if (!history.data) return { state: 'loading' };
    const byRow = latestDeploymentsByRow(history.data.deployments, releaseRowKey);
    return {
      state: 'ready',
      latest: (row) => byRow.get(releaseRowKey(row)) ?? null,
      complete: history.data.complete,
    };
  }, [history.isError, history.data]);

  const open = useCallback(
    (row: ReleaseRow) =>
      void navigate({
        to: '/releases/$release',
        params: { release: row.release },
        search: (prev) => ({
          ...prev,
          project: row.project_id,
          projects: undefined,
          environment: row.environment,
          service: row.service_name,
        }),
      }),
    [navigate],
  );

  if (rows.length === 0) {
    return (
      <StateFrame>
        <EmptyReleases />
      </StateFrame>
    );
  }

  return (
    <>
      <div className={styles.toolbar}>
        <span className={styles.count}>
          {rows.length.toLocaleString('en-US')} {rows.length === 1 ? 'row' : 'rows'} (one per
          release, environment and service), most recently seen first
          {hasNextPage ? ' — more load as you scroll' : ''}
        </span>
        {untilIgnored && (
          <span className={styles.note}>
            <InfoIcon size={13} /> Rows seen since the range’s start; its end is not applied.
          </span>
        )}
        {deployments.state === 'failed' && (
          <span className={styles.note} role="status">
            <InfoIcon size={13} /> Deployments could not be loaded.{' '}
            <button type="button" className={styles.inline} onClick={() => void history.refetch()}>
              Try again
            </button>
          </span>
        )}
        {deployments.state === 'ready' && !deployments.complete && (
          <span className={styles.note}>
            <InfoIcon size={13} /> Latest deployments are matched among the newest ones only.
          </span>
        )}
      </div>
      <ReleaseList rows={rows} next={next} deployments={deployments} onOpen={open} />
    </>
  );
}

function EmptyReleases() {
  const search = useReleasesSearch();
  const setSearch = useSetReleasesSearch();
  if (narrowingCount(search) > 0) {
    return (
      <EmptyState
        title="No releases match these filters"
        action={
          <Button size="sm" onClick={() => setSearch((p) => clearedReleaseFilters(p))}>
            Clear filters
          </Button>
        }
      >
        Service, release and environment match exact names. Check the spelling, clear a filter, or
        widen the time range in the header.
      </EmptyState>
    );
  }
  return (
    <EmptyState title="No releases in this scope and range">
      A release appears once a service sends telemetry with a <code>release</code>,{' '}
      <code>environment</code> and <code>service_name</code>. Widen the time range in the header or
      choose other projects.
    </EmptyState>
  );
}
