import { useSuspenseQueries, useSuspenseQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { ToggleGroup } from 'radix-ui';
import { useMemo } from 'react';
import { metricQueries, type VolumeSummary } from '../../api/queries/metrics';
import { deploymentQueries } from '../../api/queries/releases';
import type { WindowCheck } from '../../lib/series-window';
import { ErrorState } from '../../ui/error-state';
import { PendingState } from '../../ui/pending-state';
import { QueryBoundary } from '../../ui/query-boundary';
import { ReportSection } from '../../ui/report-section';
import { bucketWords } from '../../lib/series-window';
import {
  formatBytes,
  formatBytesTick,
  formatCompactCount,
  parseStreams,
  serializeStreams,
  sumVolumes,
} from './chart-data';
import {
  STREAM_COLOR,
  STREAM_LABELS,
  STREAMS,
  streamLines,
  streamTotalsText,
  volumeChartData,
  type Stream,
} from '../../widgets/time-series/volume-chart-data';
import { DeploymentList } from '../../widgets/deployment-marks/deployment-marker';
import {
  deploymentMarkers,
  deploymentsInScope,
  releaseLinkOf,
  type DeploymentMarker,
} from '../../widgets/deployment-marks/deployment-markers';
import styles from './metrics-page.module.css';
import type { VolumePlan } from './metrics-reads';
import { MAX_SUMMED_PROJECTS } from './metrics-reads';
import { LineSwatch, TimeSeriesChart } from '../../widgets/time-series/time-series-chart';
import { useMetricsSearch, useSetMetricsSearch } from './use-metrics-search';

function scopeNote(plan: VolumePlan): string {
  switch (plan.scope) {
    case 'one':
      return 'Counts for the selected project.';
    case 'set':
      return `Counts for the ${plan.selectedCount} selected projects, added up (the volume route reads one project at a time).`;
    case 'all-instead-of-set':
      return `The volume route reads one project or all of them: with ${plan.selectedCount} projects selected (more than ${MAX_SUMMED_PROJECTS} to add up), these are the counts of every project you can read.`;
    default:
      return 'Counts for every project you can read.';
  }
}

/** Events and bytes per stream over the range, on two charts (never one axis for both). */
export function VolumeSection({ plan, window }: { plan: VolumePlan; window: WindowCheck }) {
  const resetKey = JSON.stringify(plan);
  return (
    <ReportSection
      title="Telemetry volume"
      note={<>Stored items by their own time (a span&rsquo;s start). {scopeNote(plan)}</>}
    >
      {window.ok ? (
        <QueryBoundary
          resetKey={resetKey}
          pending={<PendingState label="Loading volume…" />}
          renderError={(error, retry) => <ErrorState error={error} reset={retry} compact />}
        >
          <VolumeCharts plan={plan} />
        </QueryBoundary>
      ) : (
        <p className={styles.blocked}>
          Not read: this interval and range would be refused (see the note above).
        </p>
      )}
    </ReportSection>
  );
}

/** One answer per project read, added up (a stable function, so its result is kept). */
const combineVolumes = (results: { data: VolumeSummary }[]) =>
  sumVolumes(results.map((r) => r.data));

function VolumeCharts({ plan }: { plan: VolumePlan }) {
  const search = useMetricsSearch();
  const setSearch = useSetMetricsSearch();
  const navigate = useNavigate();
  const shown = useMemo(() => parseStreams(search.streams), [search.streams]);
  const summary = useSuspenseQueries({
    queries: plan.reads.map((p) => metricQueries.volume(p)),
    combine: combineVolumes,
  });
  const { data: deployments } = useSuspenseQuery(deploymentQueries.range(plan.deployments));
  const chart = useMemo(() => (summary ? volumeChartData(summary, shown) : null), [summary, shown]);
  const markers = useMemo(() => {
    if (!chart) return [];
    const list = deploymentsInScope(deployments.deployments, plan.deploymentScope);
    return deploymentMarkers(list, chart.axis.domain);
  }, [chart, deployments, plan.deploymentScope]);

  if (!chart || !summary) return null;
  const open = (m: DeploymentMarker) => void navigate(releaseLinkOf(m.deployment));
  const eventLines = streamLines(shown);
  const byteStreams = shown.filter((s) => chart.streamsWithBytes.includes(s));
  const byteLines = eventLines.filter((l) => byteStreams.includes(l.dataKey as Stream));
  const bucket = `per ${bucketWords(summary.interval)} bucket`;

  return (
    <>
      <ToggleGroup.Root
        type="multiple"
        aria-label="Streams shown"
        className={styles.streamToggles}
        value={shown}
        onValueChange={(value) =>
          setSearch(
            { streams: serializeStreams(STREAMS.filter((s) => value.includes(s))) },
            { replace: true },
          )
        }
      >
        {STREAMS.map((s) => (
          <ToggleGroup.Item key={s} value={s} className={styles.streamToggle}>
            <span className={styles.check} aria-hidden="true" />
            <LineSwatch color={STREAM_COLOR[s]} dashed={false} />
            {STREAM_LABELS[s]}
            <span className={styles.streamTotal}>
              {chart.totals[s].events.toLocaleString('en-US')}
            </span>
          </ToggleGroup.Item>
        ))}
      </ToggleGroup.Root>
      {shown.length === 0 ? (
        <p className={styles.blocked}>No stream is shown: turn one on above.</p>
      ) : (
        <div className={styles.volumeCharts}>
          <figure className={styles.chartPanel} aria-labelledby="volume-events-title">
            <figcaption className={styles.chartCaption}>
              <span id="volume-events-title" className={styles.chartTitle}>
                Events
              </span>
              <span className={styles.chartMeta}>items {bucket}</span>
            </figcaption>
            <TimeSeriesChart
              label={`Events ${bucket}: ${streamTotalsText(chart.totals, shown)}`}
              rows={chart.events}
              lines={eventLines}
              axis={chart.axis}
              yLabel="events"
              formatTick={formatCompactCount}
              formatValue={(v) => (v ?? 0).toLocaleString('en-US')}
              markers={markers}
              onOpenDeployment={open}
            />
          </figure>
          <figure className={styles.chartPanel} aria-labelledby="volume-bytes-title">
            <figcaption className={styles.chartCaption}>
              <span id="volume-bytes-title" className={styles.chartTitle}>
                Bytes
              </span>
              <span className={styles.chartMeta}>as usage counts them, {bucket}</span>
            </figcaption>
            {byteLines.length === 0 ? (
              <p className={styles.blocked}>None of the shown streams has bytes in this range.</p>
            ) : (
              <TimeSeriesChart
                label={`Bytes ${bucket}: ${byteStreams.map((s) => `${STREAM_LABELS[s]} ${formatBytes(chart.totals[s].bytes)}`).join(', ')}`}
                rows={chart.bytes}
                lines={byteLines}
                axis={chart.axis}
                yLabel="bytes"
                formatTick={formatBytesTick}
                formatValue={(v) => formatBytes(v ?? 0)}
                markers={markers}
                onOpenDeployment={open}
                drawAfterFirstPaint
              />
            )}
          </figure>
        </div>
      )}
      <DeploymentList
        label="Deployments on the volume charts"
        markers={markers}
        complete={deployments.complete}
      />
    </>
  );
}
