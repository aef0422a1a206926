import { useSuspenseQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useMemo } from 'react';
import { USAGE_INTERVALS, usageQueries, type UsageInterval } from '../../api/queries/account';
import { projectsQueries } from '../../api/queries/projects';
import { byteTicks } from '../../lib/byte-ticks';
import { formatBytes, formatCompactCount } from '../../lib/format-bytes';
import { ReadBoundary } from '../../ui/read-boundary';
import { ReportSection } from '../../ui/report-section';
import { SegmentedChoice } from '../../ui/segmented-choice';
import { historyChartData, historyDeploymentScope } from './usage-history-data';
import { DeploymentMarksSummary } from '../../widgets/deployment-marks/deployment-marks-summary';
import {
  releaseLinkOf,
  type DeploymentMarker,
} from '../../widgets/deployment-marks/deployment-markers';
import { useChartDeployments } from '../../widgets/deployment-marks/use-chart-deployments';

/** Marks go on their period's bar: the read's range is the only bound. */
const OPEN_DOMAIN: [number, number] = [Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY];
import { UsageHistoryChart } from './usage-history-chart';
import styles from './usage-page.module.css';
import { HISTORY_SPLITS, intervalOf, splitOf, type HistorySplit } from './usage-search';
import { useSetUsageSearch, useUsageSearch } from './use-usage-search';

const INTERVAL_LABELS: Record<UsageInterval, string> = {
  daily: 'Days',
  weekly: 'Weeks',
  monthly: 'Months',
  yearly: 'Years',
};
const BUCKET_COUNTS: Record<UsageInterval, string> = {
  daily: 'the last 30 days',
  weekly: 'the last 12 weeks (from Monday)',
  monthly: 'the last 12 months',
  yearly: 'the last 5 years',
};
const BUCKET_NOUNS: Record<UsageInterval, string> = {
  daily: 'day',
  weekly: 'week',
  monthly: 'month',
  yearly: 'year',
};
const SPLIT_LABELS: Record<HistorySplit, string> = {
  total: 'Total',
  stream: 'By stream',
  project: 'By project',
};

/** Usage per calendar bucket: events and bytes on separate charts (different units). */
export function UsageHistorySection() {
  const search = useUsageSearch();
  const setSearch = useSetUsageSearch();
  const interval = intervalOf(search);
  const split = splitOf(search);
  return (
    <ReportSection
      title="History"
      note={`Usage in ${BUCKET_COUNTS[interval]}, oldest first; the last bar is the current period, still counting.`}
      controls={
        <>
          <SegmentedChoice
            label="History interval"
            caption="Interval"
            value={interval}
            options={USAGE_INTERVALS.map((v) => ({ value: v, label: INTERVAL_LABELS[v] }))}
            onChange={(v) => setSearch({ interval: v === 'monthly' ? undefined : v })}
          />
          <SegmentedChoice
            label="Split the bars"
            caption="Split"
            value={split}
            options={HISTORY_SPLITS.map((v) => ({ value: v, label: SPLIT_LABELS[v] }))}
            onChange={(v) => setSearch({ split: v === 'total' ? undefined : v })}
          />
        </>
      }
    >
      <ReadBoundary resetKey={interval} label="Reading usage history…">
        <HistoryCharts interval={interval} split={split} />
      </ReadBoundary>
    </ReportSection>
  );
}

function HistoryCharts({ interval, split }: { interval: UsageInterval; split: HistorySplit }) {
  const { data: history } = useSuspenseQuery(usageQueries.history(interval));
  const { data: projects } = useSuspenseQuery(projectsQueries.list());
  const chart = useMemo(() => {
    const names = new Map(projects.map((p) => [p.id, p.name]));
    return historyChartData(history, split, (id) => names.get(id) ?? id);
  }, [history, split, projects]);
  const marks = useMemo(() => historyDeploymentScope(history), [history]);
  const deployments = useChartDeployments(
    { since: marks.since },
    { projectIds: marks.projectIds },
    OPEN_DOMAIN,
    marks.marked,
  );
  const navigate = useNavigate();
  const openDeployment = (m: DeploymentMarker) => void navigate(releaseLinkOf(m.deployment));
  const totals = chart.rows.reduce(
    (t, r) => ({ events: t.events + r.totalEvents, bytes: t.bytes + r.totalBytes }),
    { events: 0, bytes: 0 },
  );
  const describe = (measure: 'events' | 'bytes') =>
    `${measure === 'events' ? 'Events' : 'Bytes'} per ${BUCKET_NOUNS[interval]} bucket, ${chart.rows
      .map(
        (r) =>
          `${r.label}${r.current ? ' (so far)' : ''}: ${measure === 'events' ? r.totalEvents.toLocaleString('en-US') : formatBytes(r.totalBytes)}`,
      )
      .join('; ')}`;
  return (
    <div className={styles.history}>
      <ul className={styles.legend} aria-label="Series">
        {chart.series.map((s, i) => (
          <li key={s.key}>
            <span className={styles.swatch} style={{ background: `var(--line-${i})` }} />
            {s.label}
          </li>
        ))}
        <li className={styles.legendNote}>
          <span className={`${styles.swatch} ${styles.swatchCurrent}`} /> current period (still
          counting)
        </li>
        {marks.marked && (
          <li>
            <DeploymentMarksSummary label="Deployments on the usage charts" {...deployments} />
          </li>
        )}
      </ul>
      <div className={styles.charts}>
        <figure className={styles.chartFigure}>
          <figcaption>
            Events{' '}
            <span className={styles.chartTotal}>
              {totals.events.toLocaleString('en-US')} in the window
            </span>
          </figcaption>
          <UsageHistoryChart
            label={describe('events')}
            measure="events"
            rows={chart.rows}
            series={chart.series}
            format={(n) => n.toLocaleString('en-US')}
            formatTick={formatCompactCount}
            markers={deployments.markers}
            onOpenDeployment={openDeployment}
          />
        </figure>
        <figure className={styles.chartFigure}>
          <figcaption>
            Bytes{' '}
            <span className={styles.chartTotal}>{formatBytes(totals.bytes)} in the window</span>
          </figcaption>
          <UsageHistoryChart
            label={describe('bytes')}
            measure="bytes"
            rows={chart.rows}
            series={chart.series}
            format={formatBytes}
            formatTick={formatBytes}
            ticks={byteTicks(Math.max(0, ...chart.rows.map((r) => r.totalBytes)))}
            markers={deployments.markers}
            onOpenDeployment={openDeployment}
            drawAfterFirstPaint
          />
        </figure>
      </div>
      <p className={styles.none}>
        A bucket&rsquo;s project count (projects with usage in it) is not added across buckets; the
        account owns {history.current.usage.projects.toLocaleString('en-US')}{' '}
        {history.current.usage.projects === 1 ? 'project' : 'projects'}.
      </p>
    </div>
  );
}
