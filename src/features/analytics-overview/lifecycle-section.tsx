import { useSuspenseQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useMemo } from 'react';
import {
  analyticsQueries,
  type LifecycleRequest,
  type OverviewParams,
} from '../../api/queries/analytics';
import { SegmentedChoice } from '../../ui/segmented-choice';
import { ActionSelect } from './action-select';
import type { RetentionPeriod } from './analytics-overview-search';
import { actionText, formatCount, plural } from './analytics-text';
import { LifecycleChart, lifecyclePalette, STATE_SWATCH } from './lifecycle-chart';
import {
  LIFECYCLE_LABELS,
  LIFECYCLE_MEANINGS,
  LIFECYCLE_STATES,
  lifecycleChartData,
  type LifecycleState,
} from './lifecycle-data';
import styles from './lifecycle-section.module.css';
import { ReadBoundary } from '../../ui/read-boundary';
import { ReportSection } from '../../ui/report-section';
import { Coverage, NoActions } from './analytics-coverage';
import { useAnalyticsSearch, useSetAnalyticsSearch } from './use-analytics-search';
import { DeploymentMarksSummary } from '../../widgets/deployment-marks/deployment-marks-summary';
import {
  releaseLinkOf,
  type DeploymentMarker,
} from '../../widgets/deployment-marks/deployment-markers';
import { useChartDeployments } from '../../widgets/deployment-marks/use-chart-deployments';

/** Placed on their period's bar, so the only bound is the range the read covered. */
const OPEN_DOMAIN: [number, number] = [Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY];

const PERIOD_OPTIONS = [
  { value: 'day', label: 'Days' },
  { value: 'week', label: 'Weeks' },
] as const;

/** Per period, how many users are new, returning, resurrecting or gone dormant. */
export function LifecycleSection({
  request,
  overview,
}: {
  request: LifecycleRequest;
  overview: OverviewParams;
}) {
  const search = useAnalyticsSearch();
  const setSearch = useSetAnalyticsSearch();
  const period: RetentionPeriod = request.period ?? 'day';
  return (
    <ReportSection
      title="Lifecycle"
      note="Each period’s active users split by where they come from, and the users who went dormant (drawn below zero)."
      controls={
        <>
          <SegmentedChoice
            label="Lifecycle period"
            caption="Period"
            value={period}
            options={PERIOD_OPTIONS}
            onChange={(v) => setSearch({ lifecycle_period: v === 'day' ? undefined : v })}
          />
          <ActionSelect
            label="Active means"
            anyLabel="Any action"
            value={search.lifecycle_event}
            overview={overview}
            onChange={(a) => setSearch({ lifecycle_event: a })}
          />
        </>
      }
    >
      <ReadBoundary resetKey={JSON.stringify(request)} label="Reading lifecycle…" belowFold>
        <LifecycleBody request={request} period={period} />
      </ReadBoundary>
    </ReportSection>
  );
}

function LifecycleBody({
  request,
  period,
}: {
  request: LifecycleRequest;
  period: RetentionPeriod;
}) {
  const { data } = useSuspenseQuery(analyticsQueries.lifecycle(request));
  const chart = useMemo(() => lifecycleChartData(data), [data]);
  const navigate = useNavigate();
  const deployments = useChartDeployments(
    { since: request.since, until: request.until },
    {
      projectIds: [request.project_id],
      serviceName: request.service_name,
      release: request.release,
      environment: request.environment,
    },
    OPEN_DOMAIN,
  );
  const openDeployment = (m: DeploymentMarker) => void navigate(releaseLinkOf(m.deployment));
  const { coverage, summary } = data;
  const event = data.query.event;
  const noun = period === 'day' ? 'day' : 'week';
  const totals: Record<LifecycleState, number> = {
    new: summary.new_units,
    returning: summary.returning_units,
    resurrecting: summary.resurrecting_units,
    dormant: summary.dormant_units,
  };
  return (
    <>
      <Coverage
        lines={[
          coverage.events === 0
            ? 'No coverage to report: no actions were counted in range'
            : event
              ? `Of ${plural(coverage.events, 'action', 'actions')} in range, ${formatCount(coverage.matching_events)} are the active action (${actionText({ kind: event.kind, name: event.event_name })})`
              : `All ${plural(coverage.events, 'action', 'actions')} make a user active (any action)`,
        ]}
        limitations={coverage.limitations}
      />
      {coverage.events === 0 ? (
        <NoActions detail={false} />
      ) : (
        <div className={`${styles.summary} ${lifecyclePalette}`}>
          <div>
            <dl className={styles.stats} aria-label="Lifecycle totals">
              <div className={styles.stat}>
                <dt className={styles.statLabel}>Active users</dt>
                <dd className={styles.statValue}>{formatCount(summary.active_units)}</dd>
              </div>
              {LIFECYCLE_STATES.filter((s) => s !== 'new').map((state) => (
                <div key={state} className={styles.stat}>
                  <dt className={styles.statLabel}>
                    <Swatch state={state} />
                    {LIFECYCLE_LABELS[state]}
                  </dt>
                  <dd className={styles.statValue}>{formatCount(totals[state])}</dd>
                </div>
              ))}
            </dl>
            <p className={styles.statsNote}>
              Users in that state in at least one {noun}; every active user is new once.
            </p>
          </div>
          <div>
            <figure className={styles.chartPanel}>
              <figcaption className={styles.chartCaption}>
                <span>
                  <strong>Users per {noun}</strong> · dormant below zero · UTC
                </span>
                <DeploymentMarksSummary
                  label="Deployments on the lifecycle chart"
                  {...deployments}
                />
              </figcaption>
              <LifecycleChart
                label={`Lifecycle of users per ${noun} over ${plural(chart.rows.length, noun, `${noun}s`)}: new, returning and resurrecting above zero, dormant below`}
                rows={chart.rows}
                extent={chart.extent}
                markers={deployments.markers}
                onOpenDeployment={openDeployment}
              />
            </figure>
            <ul className={styles.legend} aria-label="Lifecycle states">
              {LIFECYCLE_STATES.map((state) => (
                <li key={state}>
                  <Swatch state={state} />
                  {LIFECYCLE_LABELS[state]}
                  <span className={styles.legendMeaning}>{LIFECYCLE_MEANINGS[state]}</span>
                </li>
              ))}
            </ul>
          </div>
        </div>
      )}
    </>
  );
}

function Swatch({ state }: { state: LifecycleState }) {
  return <span className={STATE_SWATCH[state]} aria-hidden="true" />;
}
