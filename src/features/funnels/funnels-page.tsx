import { useSuspenseQuery } from '@tanstack/react-query';
import { useTickingNow } from '../../ui/use-ticking-now';
import { Link } from '@tanstack/react-router';
import { useCallback, useEffect, useMemo, type ReactNode } from 'react';
import { projectsQueries } from '../../api/queries/projects';
import { oneProjectChoices, scopeIsOneProject } from '../../lib/one-project';
import { Callout } from '../../ui/callout';
import { OneProjectPicker } from '../../ui/one-project-picker';
import page from '../../ui/report-page.module.css';
import { useDocumentTitle } from '../../ui/use-document-title';
import { ACTION_CHOICE_LIMIT } from './action-choices';
import { FunnelComparisonSection } from './funnel-comparison-section';
import { FunnelDefinitionForm } from './funnel-definition-form';
import {
  ANALYTICS_BUSIEST_REASON,
  AnalyticsProjectOpener,
} from '../../widgets/project-opening/analytics-project-opener';
import { useProjectOpening } from '../../widgets/project-opening/use-project-opening';
import { useFunnelProjectShown, useLastFunnelProject } from './last-funnel-project-store';
import { planFunnel } from './funnel-plan';
import { FunnelResultSection } from './funnel-result-section';
import styles from './funnels-page.module.css';
import { useFunnelsSearch, useSetFunnelsSearch } from './use-funnels-search';

/**
 * `/analytics/funnels`: how many sessions or users go through a sequence of product actions,
 * in order, within a conversion window, in one project over the header's range. The whole
 * definition is in the URL; the result leads with its coverage, and the same funnel can be
 * read for two environments or releases side by side.
 */
export function FunnelsPage() {
  useDocumentTitle('Funnels');
  const search = useFunnelsSearch();
  const setSearch = useSetFunnelsSearch();
  const { data: projects } = useSuspenseQuery(projectsQueries.list());
  const readableIds = useMemo(() => projects.map((p) => p.id), [projects]);
  // The 31-day range is checked against a clock that moves every minute.
  const now = useTickingNow(60_000);
  const plan = useMemo(() => planFunnel(search, readableIds, now), [search, readableIds, now]);
  const oneProject = scopeIsOneProject(search, readableIds);
  const choices = oneProjectChoices(search, projects);
  const lastUsed = useLastFunnelProject();
  const funnelProjectShown = useFunnelProjectShown();
  useEffect(() => {
    if (plan.project !== null) funnelProjectShown(plan.project);
  }, [plan.project, funnelProjectShown]);
  const opening = useProjectOpening({
    busiestReason: ANALYTICS_BUSIEST_REASON,
    projects,
    shownProject: plan.project,
    fromScope: oneProject,
    openInUrl: useCallback(
      (projectId: string) => setSearch({ analytics_project: projectId }, { replace: true }),
      [setSearch],
    ),
    lastUsedReason: 'the project of your last funnel',
  });
  const pickCallout = (note?: ReactNode) => (
    <Callout tone="info" role="status" title="Pick a project to build a funnel">
      {note}
      <p>
        A funnel reads the actions of one project, and the header&rsquo;s scope holds{' '}
        {search.projects ? 'several projects' : 'every project'}. Choose one in the
        &ldquo;Project&rdquo; field above, or select a single project in the header.
      </p>
    </Callout>
  );

  return (
    <div className={page.page}>
      <header className={page.header}>
        <div className={page.titleBlock}>
          <h1 className={page.title}>Funnels</h1>
          <p className={page.subtitle}>
            How many sessions or users complete a sequence of product actions in order, within a
            conversion window, in one project over the header&rsquo;s time range (UTC). See the{' '}
            <Link to="/analytics" className={styles.inlineLink}>
              analytics overview
            </Link>{' '}
            for the actions people take most.
          </p>
          {opening.openedNote && (
            <p className={page.subtitle} role="status">
              {opening.openedNote}
            </p>
          )}
        </div>
        {!oneProject && (
          <OneProjectPicker
            choices={choices}
            value={plan.project}
            onChange={(id) => {
              if (id === undefined) opening.pickCleared();
              setSearch({ analytics_project: id });
            }}
          />
        )}
      </header>
      {plan.project === null ? (
        opening.autoOpen && !oneProject && plan.rangeCheck.ok && choices.length > 0 ? (
          <AnalyticsProjectOpener
            search={search}
            topLimit={ACTION_CHOICE_LIMIT}
            choices={choices}
            lastUsed={lastUsed}
            onOpen={opening.open}
            pickCallout={pickCallout}
          />
        ) : (
          pickCallout()
        )
      ) : (
        <>
          <FunnelDefinitionForm plan={plan} />
          <FunnelResultSection plan={plan} />
          <FunnelComparisonSection plan={plan} />
        </>
      )}
    </div>
  );
}
