import { TelemetryText } from '../../ui/telemetry-text';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useMemo } from 'react';
import type { IssueDetail } from '../../api/queries/issue-detail';
import { issuesQueries } from '../../api/queries/issues';
import { formatUtcDateTime } from '../../lib/format-time';
import { readRangeOf } from '../../lib/read-range';
import { parseTimeRange, timeRangeLabel } from '../../lib/time-range';
import { ErrorState } from '../../ui/error-state';
import { DeploymentMarksSummary } from '../../widgets/deployment-marks/deployment-marks-summary';
import {
  releaseLinkOf,
  type DeploymentMarker,
} from '../../widgets/deployment-marks/deployment-markers';
import { useChartDeployments } from '../../widgets/deployment-marks/use-chart-deployments';
import { IssueTrendChart } from './issue-trend-chart';
import {
  barWords,
  eventCount,
  issueDeploymentScope,
  issueTrend,
  trendLabel,
} from './issue-trend-data';
import styles from './issue-trend.module.css';
import { relativeTime } from './relative-time';
import { useHeaderRange } from './use-issue-search';

/**
 * The issue's trend near the top of its page: its counts and first and last sighting beside a
 * compact chart of its events over the header's range, with the deployments of its service
 * to its environment marked. The chart reads on its own: a failure or an empty range shows
 * here only, and the rest of the page does not wait for it.
 */
export function IssueTrend({ issue }: { issue: IssueDetail }) {
  const header = useHeaderRange();
  const range = useMemo(() => readRangeOf(header), [header]);
  const words = timeRangeLabel(parseTimeRange(header));
  const histogram = useQuery(
    issuesQueries.histograms({
      ids: [issue.id],
      since: range.since,
      ...(range.until !== undefined ? { until: range.until } : {}),
    }),
  );
  const trend = useMemo(
    () => (histogram.data ? issueTrend(histogram.data, issue.id) : null),
    [histogram.data, issue.id],
  );
  const drawn = trend !== null && trend.total > 0;
  const scope = issueDeploymentScope(issue);
  // The marks are read over the bars' own range (widened to whole hours), once it is known.
  const deployments = useChartDeployments(
    trend ? { since: trend.since, until: trend.until } : range,
    scope,
    trend?.domain ?? null,
    drawn,
  );
  const navigate = useNavigate();
  const openDeployment = (m: DeploymentMarker) => void navigate(releaseLinkOf(m.deployment));

  return (
    <section className={styles.trend} aria-labelledby="issue-trend-title">
      <dl className={styles.facts}>
        <div>
          <dt>Events</dt>
          <dd className={styles.factValue}>{issue.occurrence_count.toLocaleString('en-US')}</dd>
        </div>
        <div>
          <dt>First seen</dt>
          <dd className={styles.factValue} title={formatUtcDateTime(issue.first_seen_at)}>
            {relativeTime(issue.first_seen_at)}
          </dd>
        </div>
        <div>
          <dt>Last seen</dt>
          <dd title={formatUtcDateTime(issue.last_seen_at)}>
            <span className={styles.factValue}>{relativeTime(issue.last_seen_at)}</span>
            <span className={styles.factSub}>
              in{' '}
              <span className={styles.mono}>
                <TelemetryText text={issue.release} />
              </span>
            </span>
          </dd>
        </div>
      </dl>
      <div className={styles.plot}>
        <div className={styles.caption}>
          <h2 id="issue-trend-title" className={styles.title}>
            Events over time
          </h2>
          <span className={styles.meta}>
            {words}
            {trend !== null && (
              <>
                {' · '}
                {barWords(trend.bucketSeconds)} · UTC
                {drawn && <> · {eventCount(trend.total)} in range</>}
              </>
            )}
          </span>
          {drawn && (
            <span className={styles.marks}>
              Deployments of{' '}
              <strong>
                <TelemetryText text={issue.service_name} />
              </strong>{' '}
              to{' '}
              <strong>
                <TelemetryText text={issue.environment} />
              </strong>
              <DeploymentMarksSummary
                label="Deployments on the issue's events chart"
                {...deployments}
              />
            </span>
          )}
        </div>
        {histogram.error !== null && !histogram.isFetching ? (
          <div className={styles.failed}>
            <ErrorState error={histogram.error} reset={() => void histogram.refetch()} compact />
          </div>
        ) : trend === null ? (
          <p className={styles.placeholder} role="status">
            Reading this issue&rsquo;s events…
          </p>
        ) : drawn ? (
          <IssueTrendChart
            label={trendLabel(trend, words.replace(/^Last/, 'last'))}
            trend={trend}
            markers={deployments.markers}
            onOpenDeployment={openDeployment}
          />
        ) : (
          <p className={styles.placeholder}>
            No events of this issue in the range. It was last seen{' '}
            {relativeTime(issue.last_seen_at)} ({formatUtcDateTime(issue.last_seen_at)}): choose a
            range in the header that covers it.
          </p>
        )}
      </div>
    </section>
  );
}
