import { useSuspenseQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { projectsQueries } from '../../api/queries/projects';
import { oneProjectChoices, scopeIsOneProject } from '../../lib/one-project';
import { Callout } from '../../ui/callout';
import { OneProjectPicker } from '../../ui/one-project-picker';
import page from '../../ui/report-page.module.css';
import { useDocumentTitle } from '../../ui/use-document-title';
import { useTickingNow } from '../../ui/use-ticking-now';
import styles from './analytics-overview-page.module.css';
import { analyticsReads } from './analytics-reads';
import { LifecycleSection } from './lifecycle-section';
import { OverviewSection } from './overview-section';
import { PathsSection } from './paths-section';
import { PropertiesSection } from './properties-section';
import { RetentionSection } from './retention-section';
import { useAnalyticsSearch, useSetAnalyticsSearch } from './use-analytics-search';

/**
 * `/analytics`: what people do in one project over the header's range — totals and top
 * actions, property keys, retention cohorts and common paths, each with what it covers.
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
        </div>
        {!fromScope && (
          <OneProjectPicker
            choices={oneProjectChoices(search, projects)}
            value={reads.kind === 'pick-project' ? null : reads.project}
            onChange={(id) => setSearch({ analytics_project: id })}
          />
        )}
      </header>
      {reads.kind === 'pick-project' && (
        <Callout tone="info" role="status" title="Pick a project to analyse">
          Product analytics reads one project at a time, and the header&rsquo;s scope holds{' '}
          {search.projects ? 'several projects' : 'every project'}. Choose one in the
          &ldquo;Project&rdquo; field above, or select exactly one project in the header. Nothing is
          read until then.
        </Callout>
      )}
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
