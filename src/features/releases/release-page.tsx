import { TelemetryText } from '../../ui/telemetry-text';
import { useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useMemo } from 'react';
import { projectsQueries } from '../../api/queries/projects';
import { releaseQueries, type ReleaseListFilters } from '../../api/queries/releases';
import { formatShortUtc } from '../../lib/format-short-time';
import { useStableValue } from '../../lib/use-stable-value';
import { useLiveRefresh } from '../../live/use-live-refresh';
import { EmptyState } from '../../ui/empty-state';
import { ErrorState } from '../../ui/error-state';
import { PendingState } from '../../ui/pending-state';
import { QueryBoundary } from '../../ui/query-boundary';
import { StateFrame } from '../../ui/state-frame';
import { useDocumentTitle } from '../../ui/use-document-title';
import { canRecordDeployments } from './deployment-form';
import { liveEventTouchesReleases } from './live-release-match';
import { ReleaseDetail } from './release-detail';
import styles from './release-page.module.css';
import { releaseRowFiltersOf, type ReleasePageSearch } from './release-search';
import { releaseRowKey } from './release-view';
import { useReleaseSearch } from './use-release-search';

/**
 * `/releases/$release`: one release row (the path's release, with `environment` and
 * `service` in the layout's `project`): its counts and trace health, the comparison with the
 * previous release of that service and environment, the deployment timeline, and the
 * release's issues, traces, logs, actions and metric samples.
 */
export function ReleasePage({ release }: { release: string }) {
  useDocumentTitle(release);
  const search = useReleaseSearch();
  const { data: projects } = useSuspenseQuery(projectsQueries.list());
  const readableIds = useMemo(() => projects.map((p) => p.id), [projects]);
  const filters = useStableValue(releaseRowFiltersOf(release, search, readableIds));
  const filtersKey = JSON.stringify(filters);

  return (
    <div className={styles.page}>
      <nav className={styles.crumbs} aria-label="Breadcrumb">
        <Link to="/releases" search={listSearchOf} className={styles.crumb}>
          Releases
        </Link>
        <span aria-hidden="true">/</span>
        <span className={styles.crumbCurrent}>
          <TelemetryText text={release} />
        </span>
      </nav>
      <QueryBoundary
        resetKey={filtersKey}
        pending={
          <StateFrame>
            <PendingState label="Loading the release…" />
          </StateFrame>
        }
        renderError={(error, retry) => (
          <StateFrame>
            <ErrorState error={error} reset={retry} />
          </StateFrame>
        )}
      >
        <ReleaseResolver release={release} filters={filters} />
      </QueryBoundary>
    </div>
  );
}

/** Back to the list in the same scope and range (not filtered by this page's keys). */
function listSearchOf(prev: ReleasePageSearch) {
  return { project: prev.project, projects: prev.projects, since: prev.since, until: prev.until };
}

/** The row the URL names, a choice when it names several, or why there is none. */
function ReleaseResolver({ release, filters }: { release: string; filters: ReleaseListFilters }) {
  const { data } = useSuspenseQuery(releaseQueries.rows(filters));
  const { data: projects } = useSuspenseQuery(projectsQueries.list());
  const search = useReleaseSearch();
  // The row's figures (and the comparison's rows) are counted by the service: telemetry of
  // this release re-reads them.
  const client = useQueryClient();
  useLiveRefresh(
    (event) => liveEventTouchesReleases(event, filters),
    () => void client.invalidateQueries({ queryKey: releaseQueries.all() }),
  );
  const rows = data.releases;
  const [only] = rows;

  if (only === undefined) {
    const named = [
      search.service !== undefined ? `service ${search.service}` : null,
      search.environment !== undefined ? `environment ${search.environment}` : null,
    ].filter((x) => x !== null);
    return (
      <StateFrame>
        <EmptyState
          title="No such release in this scope"
          action={
            <Link to="/releases" search={listSearchOf} className={styles.backLink}>
              Back to releases
            </Link>
          }
        >
          No telemetry of release <code>{release}</code>
          {named.length > 0 ? ` with ${named.join(' and ')}` : ''} was received in the selected
          projects. Names are exact; check the link, or choose other projects in the header.
        </EmptyState>
      </StateFrame>
    );
  }

  if (rows.length > 1) {
    const names = new Map(projects.map((p) => [p.id, p.name]));
    return (
      <section className={styles.choice} aria-label="Choose a service and environment">
        <h1 className={styles.choiceTitle}>
          <code>{release}</code> was seen in {rows.length} places
        </h1>
        <p className={styles.choiceText}>
          A release page covers one service in one environment of one project. Choose one:
        </p>
        <ul className={styles.choiceList}>
          {rows.map((r) => (
            <li key={releaseRowKey(r)}>
              <Link
                to="/releases/$release"
                params={{ release: r.release }}
                search={(prev) => ({
                  ...prev,
                  project: r.project_id,
                  projects: undefined,
                  environment: r.environment,
                  service: r.service_name,
                })}
                className={styles.choiceLink}
              >
                <span className={styles.choiceService}>
                  <TelemetryText text={r.service_name} />
                </span>
                <span className={styles.choiceEnv}>
                  <TelemetryText text={r.environment} />
                </span>
                <span className={styles.choiceProject}>
                  {names.get(r.project_id) ?? r.project_id}
                </span>
                <span className={styles.choiceSeen}>
                  last seen {formatShortUtc(r.last_seen_at)} UTC
                </span>
              </Link>
            </li>
          ))}
        </ul>
      </section>
    );
  }

  return (
    <ReleaseDetail
      key={releaseRowKey(only)}
      row={only}
      projectName={projects.find((p) => p.id === only.project_id)?.name ?? only.project_id}
      highlight={search.deployment}
      canRecord={canRecordDeployments(projects.find((p) => p.id === only.project_id)?.role)}
    />
  );
}
