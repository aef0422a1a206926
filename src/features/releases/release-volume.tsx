import { useSuspenseQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useMemo, type ReactNode } from 'react';
import { metricQueries, type VolumeParams } from '../../api/queries/metrics';
import type { ReleaseRow } from '../../api/queries/releases';
import { formatCompactCount } from '../../lib/format-bytes';
import { formatUtcDateTime } from '../../lib/format-time';
import { bucketWords, chartWindowOf } from '../../lib/series-window';
import { parseTimeRange, timeRangeLabel } from '../../lib/time-range';
import { ErrorState } from '../../ui/error-state';
import { PendingState } from '../../ui/pending-state';
import { QueryBoundary } from '../../ui/query-boundary';
import palette from '../../ui/series-palette.module.css';
import { useTickingNow } from '../../ui/use-ticking-now';
import { DeploymentMarksSummary } from '../../widgets/deployment-marks/deployment-marks-summary';
import {
  releaseLinkOf,
  type DeploymentMarker,
} from '../../widgets/deployment-marks/deployment-markers';
import { useChartDeployments } from '../../widgets/deployment-marks/use-chart-deployments';
import { LineSwatch, TimeSeriesChart } from '../../widgets/time-series/time-series-chart';
import {
  STREAM_COLOR,
  STREAM_LABELS,
  STREAMS,
  streamLines,
  streamTotalsText,
  volumeChartData,
} from '../../widgets/time-series/volume-chart-data';
import { isEmptyVolume, releaseDeploymentScope, releaseVolumeParams } from './release-volume-data';
import styles from './release-volume.module.css';
import { useReleaseSearch } from './use-release-search';

const LINES = streamLines(STREAMS);

/**
 * The row's telemetry over the header's range: items per bucket and stream (issue events,
 * logs, spans, actions, metric samples), read from the volume summary filtered to exactly
 * this release, environment and service, with this release's deployments marked (the
 * timeline's "this release" entries in the range). A window the service would refuse is
 * explained, not sent; a failure shows here only.
 */
export function ReleaseVolume({ row }: { row: ReleaseRow }) {
  const search = useReleaseSearch();
  // The window (31 days) is checked against a clock that moves every minute.
  const now = useTickingNow(60_000);
  const { range, window } = chartWindowOf(search, 'compact', now);
  const words = timeRangeLabel(parseTimeRange(search));
  return (
    <section className={`${styles.panel} ${palette.palette}`} aria-labelledby="release-volume">
      {window.ok ? (
        <QueryBoundary
          resetKey={JSON.stringify([range, window.interval])}
          pending={
            <>
              <Caption words={words} />
              <PendingState label="Reading this release’s telemetry…" />
            </>
          }
          renderError={(error, retry) => (
            <>
              <Caption words={words} />
              <ErrorState error={error} reset={retry} compact />
            </>
          )}
        >
          <VolumeChart
            row={row}
            params={releaseVolumeParams(row, range, window.interval)}
            words={words}
          />
        </QueryBoundary>
      ) : (
        <>
          <Caption words={words} />
          <p className={styles.empty}>Not read: {window.message}</p>
        </>
      )}
    </section>
  );
}

/** The chart's title, its range and buckets, and (once drawn) the deployments it marks. */
function Caption({
  words,
  bucket,
  marks,
}: {
  words: string;
  bucket?: string | undefined;
  marks?: ReactNode;
}) {
  return (
    <div className={styles.caption}>
      <h2 id="release-volume" className={styles.title}>
        Telemetry over time
      </h2>
      <span className={styles.meta}>
        {words}
        {bucket !== undefined && <> · items {bucket}</>} · UTC
      </span>
      {marks}
    </div>
  );
}

function VolumeChart({
  row,
  params,
  words,
}: {
  row: ReleaseRow;
  params: VolumeParams;
  words: string;
}) {
  const { data: summary } = useSuspenseQuery(metricQueries.volume(params));
  const chart = useMemo(() => volumeChartData(summary, STREAMS), [summary]);
  const empty = isEmptyVolume(chart);
  const deployments = useChartDeployments(
    { since: params.since, until: params.until },
    releaseDeploymentScope(row),
    chart.axis.domain,
    !empty,
  );
  const navigate = useNavigate();
  const open = (m: DeploymentMarker) => void navigate(releaseLinkOf(m.deployment));

  if (empty) {
    return (
      <>
        <Caption words={words} />
        <p className={styles.empty}>
          No telemetry of this release in the range. It was last seen{' '}
          {formatUtcDateTime(row.last_seen_at)}: choose a range in the header that covers it.
        </p>
      </>
    );
  }
  const bucket = `per ${bucketWords(summary.interval)} bucket`;
  return (
    <>
      <Caption
        words={words}
        bucket={bucket}
        marks={
          <span className={styles.marks}>
            Deployments of this release
            <DeploymentMarksSummary label="Deployments on the release chart" {...deployments} />
          </span>
        }
      />
      <ul className={styles.legend} aria-label="Streams">
        {STREAMS.map((s) => (
          <li key={s} className={chart.totals[s].events === 0 ? styles.zero : undefined}>
            <LineSwatch color={STREAM_COLOR[s]} dashed={false} />
            {STREAM_LABELS[s]}
            <span className={styles.total}>{chart.totals[s].events.toLocaleString('en-US')}</span>
          </li>
        ))}
      </ul>
      <div className={styles.chartBox}>
        <TimeSeriesChart
          label={`Items of this release ${bucket}: ${streamTotalsText(chart.totals, STREAMS)}`}
          rows={chart.events}
          lines={LINES}
          axis={chart.axis}
          yLabel="items"
          formatTick={formatCompactCount}
          formatValue={(v) => (v ?? 0).toLocaleString('en-US')}
          markers={deployments.markers}
          onOpenDeployment={open}
        />
      </div>
    </>
  );
}
