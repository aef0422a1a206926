import { TelemetryText } from '../../ui/telemetry-text';
import { Link } from '@tanstack/react-router';
import { formatShortUtc } from '../../lib/format-short-time';
import { formatUtcDateTime } from '../../lib/format-time';
import { shortSha } from '../../lib/short-sha';
import { deploymentLabel, releaseLinkOf, type DeploymentMarker } from './deployment-markers';
import styles from './deployment-marker.module.css';

/**
 * A deployment's mark: a triangle pointing at the axis when it succeeded, a crossed square
 * when it failed (shape and colour both differ; the words say it too).
 */
export function MarkerShape({ failed }: { failed: boolean }) {
  if (failed) {
    return (
      <g className={styles.failedShape}>
        <rect x={-5} y={-5} width={10} height={10} rx={1.5} />
        <path d="M-2.5 -2.5L2.5 2.5M2.5 -2.5L-2.5 2.5" />
      </g>
    );
  }
  return <path className={styles.okShape} d="M-5 -4L5 -4L0 5Z" />;
}

/** A marker's shape at text size, beside its words. */
export function MarkerIcon({ failed }: { failed: boolean }) {
  return (
    <svg width="12" height="12" viewBox="-6 -6 12 12" aria-hidden="true" className={styles.icon}>
      <MarkerShape failed={failed} />
    </svg>
  );
}

/** What hovering a marker shows: service, release, environment, status, commit, times. */
export function DeploymentTooltip({ marker }: { marker: DeploymentMarker }) {
  const d = marker.deployment;
  return (
    <div className={styles.tooltip}>
      <p className={styles.tooltipTitle}>
        <MarkerIcon failed={marker.failed} />
        {d.service_name}{' '}
        <span className={styles.release}>
          <TelemetryText text={d.release} />
        </span>
      </p>
      <dl className={styles.facts}>
        <dt>Environment</dt>
        <dd>
          <TelemetryText text={d.environment} />
        </dd>
        <dt>Status</dt>
        <dd className={marker.failed ? styles.failedText : undefined}>
          {marker.failed ? 'Failed' : 'Succeeded'}
        </dd>
        <dt>Commit</dt>
        <dd className={styles.mono}>{d.commit_sha ? shortSha(d.commit_sha) : 'not recorded'}</dd>
        <dt>Finished</dt>
        <dd>{formatUtcDateTime(d.finished_at)}</dd>
      </dl>
      {marker.clamped && <p className={styles.hint}>Finished just outside the drawn range.</p>}
      <p className={styles.hint}>Click to open the release</p>
    </div>
  );
}

/**
 * The chart's deployments as links, oldest first: the way in for the keyboard and screen
 * readers, and a legend of the markers' shapes.
 */
export function DeploymentList({
  label,
  markers,
  complete,
}: {
  label: string;
  markers: DeploymentMarker[];
  complete: boolean;
}) {
  if (markers.length === 0) {
    return <p className={styles.none}>No deployments finished in this range.</p>;
  }
  const failed = markers.filter((m) => m.failed).length;
  return (
    <div className={styles.block}>
      <p className={styles.summary}>
        <span className={styles.summaryTitle}>Deployments</span>
        {markers.length.toLocaleString('en-US')} in range
        {failed > 0 ? `, ${failed} failed` : ''}
        {complete ? '' : ' (the newest 1,000)'}
        <span className={styles.legend}>
          <MarkerIcon failed={false} /> succeeded <MarkerIcon failed /> failed
        </span>
      </p>
      <ul className={styles.list} aria-label={label}>
        {markers.map((m) => {
          const d = m.deployment;
          return (
            <li key={m.key}>
              <Link
                {...releaseLinkOf(d)}
                className={m.failed ? `${styles.item} ${styles.itemFailed}` : styles.item}
                aria-label={`${deploymentLabel(d)}, finished ${formatUtcDateTime(d.finished_at)}`}
                title={d.commit_sha ? `commit ${d.commit_sha}` : undefined}
              >
                <MarkerIcon failed={m.failed} />
                <span className={styles.itemService}>
                  <TelemetryText text={d.service_name} />
                </span>
                <span className={styles.itemRelease}>
                  <TelemetryText text={d.release} />
                </span>
                <span className={styles.itemEnv}>
                  <TelemetryText text={d.environment} />
                </span>
                {m.failed && <span className={styles.itemStatus}>failed</span>}
                <span className={styles.itemTime}>{formatShortUtc(d.finished_at)}</span>
              </Link>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
