import { TelemetryText } from '../../ui/telemetry-text';
import { markBidiControls } from '../../lib/bidi-controls';
import { useSuspenseQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useMemo } from 'react';
import {
  ACTION_KIND_LABELS,
  analyticsQueries,
  type AnalyticsOverview,
  type OverviewParams,
} from '../../api/queries/analytics';
import { buttonClass } from '../../ui/button';
import { ActionsChart } from './actions-chart';
import { coverageSentence, formatCount, plural } from './analytics-text';
import tableStyles from './data-table.module.css';
import { actionsChartData, bucketWords } from './overview-chart-data';
import styles from './overview-section.module.css';
import { ReadBoundary } from '../../ui/read-boundary';
import { ReportSection } from '../../ui/report-section';
import { Coverage, NoActions } from './analytics-coverage';
import { DeploymentMarksSummary } from '../../widgets/deployment-marks/deployment-marks-summary';
import {
  releaseLinkOf,
  type DeploymentMarker,
} from '../../widgets/deployment-marks/deployment-markers';
import { useChartDeployments } from '../../widgets/deployment-marks/use-chart-deployments';

/** Totals, actions per bucket and the most frequent actions of the project over the range. */
export function OverviewSection({
  params,
  pickedProject,
}: {
  params: OverviewParams;
  /** The page's own project pick, carried to the funnels page (it reads the same key). */
  pickedProject: string | undefined;
}) {
  return (
    <ReportSection
      title="Overview"
      note="Every product action in range: how many, by how many users and sessions, and which."
    >
      <ReadBoundary resetKey={JSON.stringify(params)} label="Reading the overview…">
        <OverviewBody params={params} pickedProject={pickedProject} />
      </ReadBoundary>
    </ReportSection>
  );
}

function OverviewBody({
  params,
  pickedProject,
}: {
  params: OverviewParams;
  pickedProject: string | undefined;
}) {
  const { data } = useSuspenseQuery(analyticsQueries.overview(params));
  const chart = useMemo(() => actionsChartData(data), [data]);
  const navigate = useNavigate();
  const deployments = useChartDeployments(
    { since: params.since, until: params.until },
    {
      projectIds: [params.project_id],
      serviceName: params.service_name,
      release: params.release,
      environment: params.environment,
    },
    chart.domain,
  );
  const openDeployment = (m: DeploymentMarker) => void navigate(releaseLinkOf(m.deployment));
  const { coverage, totals } = data;
  return (
    <>
      <Coverage
        lines={[
          coverageSentence(coverage.session_events, coverage.events, 'carry a session id'),
          ...(coverage.events > 0
            ? [coverageSentence(coverage.named_events, coverage.events, 'carry a name')]
            : []),
        ]}
        limitations={coverage.limitations}
      />
      {totals.events === 0 ? (
        <NoActions />
      ) : (
        <>
          <div className={styles.summary}>
            <dl className={styles.stats} aria-label="Totals">
              <Stat label="Actions" value={totals.events} />
              <Stat label="Users" value={totals.users} note="distinct ids" />
              <Stat label="Sessions" value={totals.sessions} note="actions with a session id" />
            </dl>
            <figure className={styles.chartPanel}>
              <figcaption className={styles.chartCaption}>
                <span>
                  <strong>Actions per {bucketWords(data.interval)}</strong> · peak{' '}
                  {formatCount(chart.peak)} · UTC
                </span>
                <DeploymentMarksSummary label="Deployments on the actions chart" {...deployments} />
              </figcaption>
              <ActionsChart
                label={`Actions per ${bucketWords(data.interval)}, ${plural(data.buckets.length, 'bucket', 'buckets')}, peak ${formatCount(chart.peak)}`}
                rows={chart.rows}
                ticks={chart.ticks}
                span={chart.span}
                domain={chart.domain}
                markers={deployments.markers}
                onOpenDeployment={openDeployment}
              />
            </figure>
          </div>
          <TopActions overview={data} pickedProject={pickedProject} />
        </>
      )}
    </>
  );
}

function Stat({ label, value, note }: { label: string; value: number; note?: string }) {
  return (
    <div className={styles.stat}>
      <dt className={styles.statLabel}>{label}</dt>
      <dd className={styles.statValue}>{formatCount(value)}</dd>
      {note && <dd className={styles.statNote}>{note}</dd>}
    </div>
  );
}

function TopActions({
  overview,
  pickedProject,
}: {
  overview: AnalyticsOverview;
  pickedProject: string | undefined;
}) {
  const listed = overview.top_actions.length;
  return (
    <div>
      <div className={styles.tableHeader}>
        <h3 className={styles.tableTitle} id="top-actions-title">
          Top actions
        </h3>
        {overview.truncated_actions ? (
          <p className={styles.truncated} role="status">
            The {plural(listed, 'most frequent action is', 'most frequent actions are')} listed;
            more actions occurred in range.
          </p>
        ) : (
          <p className={styles.complete}>
            {listed === 1 ? 'The only action' : `All ${formatCount(listed)} actions`} in range.
          </p>
        )}
      </div>
      <div className={tableStyles.wrap}>
        <table className={tableStyles.table} aria-labelledby="top-actions-title">
          <thead>
            <tr>
              <th scope="col">Action</th>
              <th scope="col">Kind</th>
              <th scope="col" className={tableStyles.num}>
                Events
              </th>
              <th scope="col" className={tableStyles.num}>
                Users
              </th>
              <th scope="col" className={tableStyles.num}>
                Sessions
              </th>
              <th scope="col">
                <span className="visually-hidden">Funnel</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {overview.top_actions.map((a) => (
              <tr key={`${a.kind}:${a.name}`}>
                <td className={tableStyles.name} title={markBidiControls(a.name)}>
                  <TelemetryText text={a.name} />
                </td>
                <td>
                  <span className={tableStyles.kind}>{ACTION_KIND_LABELS[a.kind]}</span>
                </td>
                <td className={tableStyles.num}>{formatCount(a.events)}</td>
                <td className={tableStyles.num}>{formatCount(a.users)}</td>
                <td className={tableStyles.num}>{formatCount(a.sessions)}</td>
                <td className={tableStyles.actionCell}>
                  <Link
                    to="/analytics/funnels"
                    search={{
                      steps: [{ kind: a.kind, name: a.name }],
                      analytics_project: pickedProject,
                    }}
                    className={buttonClass('ghost', 'sm')}
                    aria-label={`Start a funnel here: ${ACTION_KIND_LABELS[a.kind]} ${a.name}`}
                  >
                    Start a funnel here
                  </Link>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
