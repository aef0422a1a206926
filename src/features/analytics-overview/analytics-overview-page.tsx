import { useSuspenseQuery } from '@tanstack/react-query';
import { useCallback, useMemo, type ReactNode } from 'react';
import { projectsQueries } from '../../api/queries/projects';
import { oneProjectChoices, scopeIsOneProject } from '../../lib/one-project';
import { checkRangeLength, rangeBounds } from '../../lib/read-range';
import { Callout } from '../../ui/callout';
import { OneProjectPicker } from '../../ui/one-project-picker';
import page from '../../ui/report-page.module.css';
import { useDocumentTitle } from '../../ui/use-document-title';
import { useTickingNow } from '../../ui/use-ticking-now';
import {
  ANALYTICS_BUSIEST_REASON,
  AnalyticsProjectOpener,
} from '../../widgets/project-opening/analytics-project-opener';
import { useProjectOpening } from '../../widgets/project-opening/use-project-opening';
import styles from './analytics-overview-page.module.css';
import { analyticsReads, TOP_ACTIONS_LIMIT } from './analytics-reads';
import { LifecycleSection } from './lifecycle-section';
import { OverviewSection } from './overview-section';
import { PathsSection } from './paths-section';
import { PropertiesSection } from './properties-section';
import { RetentionSection } from './retention-section';
import { useAnalyticsSearch, useSetAnalyticsSearch } from './use-analytics-search';

/**
 * `/analytics`: what people do in one project over the header's range — totals and top
 * actions, property keys, retention cohorts and common paths, each with what it covers. When
 * the header's scope holds several projects, it opens on the one with the most actions.
 */
export function AnalyticsOverviewPage() {
  useDocumentTitle('Analytics');
  const search = useAnalyticsSearch();
  const setSearch = useSetAnalyticsSearch();
  const { data: projects } = useSuspenseQuery(projectsQueries.list());
  const readableIds = useMemo(() => projects.map((p) => p.id), [projects]);
  // The 31-day limit is checked against a clock that moves every minute.
  const now = useTickingNow(60_000);
  const reads = useMemo(() => analyticsReads(search, readableIds, now), [search, readableIds, now]);
  const fromScope = scopeIsOneProject(search, readableIds);
  const choices = oneProjectChoices(search, projects);
  const bounds = rangeBounds(search, now);
  const rangeOk = checkRangeLength(bounds.since, bounds.until, 'analytics').ok;
  const opening = useProjectOpening({
    busiestReason: ANALYTICS_BUSIEST_REASON,
    projects,
    shownProject: reads.kind === 'pick-project' ? null : reads.project,
    fromScope,
    openInUrl: useCallback(
      (projectId: string) => setSearch({ analytics_project: projectId }, { replace: true }),
      [setSearch],
    ),
  });
  const pickCallout = (note?: ReactNode) => (
    <Callout tone="info" role="status" title="Pick a project to analyse">
      {note}
      <p>
        Product analytics reads one project at a time, and the header&rsquo;s scope holds{' '}
        {search.projects ? 'several projects' : 'every project'}. Choose one in the
        &ldquo;Project&rdquo; field above, or select exactly one project in the header. Nothing is
        read until then.
      </p>
    </Callout>
  );

  return (
    <div className={page.page}>
      <header className={page.header}>
        <div className={page.titleBlock}>
          <h1 className={page.title}>Analytics</h1>
          <p className={page.subtitle}>
            Product actions of one project over the selected range. Users are distinct{' '}
            <code>distinct_id</code> values: an anonymous id counts as a user of its own. Times are
            UTC.
          </p>
          {opening.openedNote && (
            <p className={page.subtitle} role="status">
              {opening.openedNote}
            </p>
          )}
        </div>
        {!fromScope && (
          <OneProjectPicker
            choices={choices}
            value={reads.kind === 'pick-project' ? null : reads.project}
            onChange={(id) => {
              if (id === undefined) opening.pickCleared();
              setSearch({ analytics_project: id });
            }}
          />
        )}
      </header>
      {reads.kind === 'pick-project' &&
        (opening.autoOpen && !fromScope && rangeOk && choices.length > 0 ? (
          <AnalyticsProjectOpener
            search={search}
            topLimit={TOP_ACTIONS_LIMIT}
            choices={choices}
            lastUsed={null}
            onOpen={opening.open}
            pickCallout={pickCallout}
          />
        ) : (
          pickCallout()
        ))}
      {reads.kind === 'range-too-long' && (
        <Callout tone="warning" role="status" title="The time range is too long for analytics">
          <p>{reads.message}</p>
          <p className={page.calloutNote}>Nothing was sent to the service.</p>
        </Callout>
      )}
      {reads.kind === 'read' && (
        <>
          <OverviewSection params={reads.overview} pickedProject={search.analytics_project} />
          <RetentionSection request={reads.retention} overview={reads.overview} />
          <LifecycleSection request={reads.lifecycle} overview={reads.overview} />
          <div className={styles.columns}>
            <PropertiesSection params={reads.properties} />
            <PathsSection request={reads.paths} overview={reads.overview} />
          </div>
        </>
      )}
    </div>
  );
}
