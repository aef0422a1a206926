import { TelemetryText } from '../../ui/telemetry-text';
import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useMemo, useRef } from 'react';
import { ApiError } from '../../api/errors';
import { deploymentQueries, type Deployment, type ReleaseRow } from '../../api/queries/releases';
import { formatDuration } from '../../lib/format-duration';
import { formatShortUtc } from '../../lib/format-short-time';
import { formatUtcDateTime } from '../../lib/format-time';
import { shortSha } from '../../lib/short-sha';
import { Callout } from '../../ui/callout';
import { CopyButton } from '../../ui/copy-button';
import { serviceTimeline } from './deployment-match';
import { DeploymentStatus } from '../../widgets/deployment-status/deployment-status';
import styles from './release-panels.module.css';
import { deploymentDurationMs } from './release-view';

/**
 * Every recorded deployment of this service to this environment (all releases), newest finish
 * first; this release's are marked, and the `deployment` of the URL is highlighted and
 * scrolled into view.
 */
export function DeploymentTimeline({
  row,
  highlight,
}: {
  row: ReleaseRow;
  highlight: string | undefined;
}) {
  const { data: history } = useSuspenseQuery(
    deploymentQueries.history({ project_id: row.project_id }),
  );
  const items = useMemo(() => serviceTimeline(row, history.deployments), [row, history]);
  const found = highlight !== undefined && items.some((d) => d.deployment_id === highlight);

  return (
    <section className={styles.panel} aria-label="Deployments">
      <h2 className={styles.panelTitle}>
        Deployments of {row.service_name} to <TelemetryText text={row.environment} />
      </h2>
      {highlight !== undefined && !found && <HighlightElsewhere row={row} id={highlight} />}
      {items.length === 0 ? (
        <p className={styles.text}>
          No deployment of this service to this environment was recorded
          {history.complete ? '' : ' among the newest deployments of the project'}. Deployments are
          recorded with <code>PUT /api/telemetry/deployments/&#123;id&#125;</code>.
        </p>
      ) : (
        <ol className={styles.timeline}>
          {items.map((d) => (
            <TimelineItem
              key={d.deployment_id}
              deployment={d}
              row={row}
              highlighted={d.deployment_id === highlight}
            />
          ))}
        </ol>
      )}
      {!history.complete && items.length > 0 && (
        <p className={styles.rule}>Only the project’s newest deployments were read.</p>
      )}
    </section>
  );
}

function TimelineItem({
  deployment: d,
  row,
  highlighted,
}: {
  deployment: Deployment;
  row: ReleaseRow;
  highlighted: boolean;
}) {
  const ref = useRef<HTMLLIElement>(null);
  useEffect(() => {
    if (highlighted) ref.current?.scrollIntoView({ block: 'center' });
  }, [highlighted]);
  const own = d.release === row.release;
  return (
    <li
      ref={ref}
      className={styles.deployment}
      data-status={d.status}
      data-own={own || undefined}
      data-highlighted={highlighted || undefined}
      aria-current={highlighted ? 'true' : undefined}
      data-testid="deployment"
    >
      <span className={styles.dot} aria-hidden="true" />
      <div className={styles.deploymentHead}>
        <DeploymentStatus status={d.status} />
        {own ? (
          <span className={styles.ownRelease}>
            <span className={styles.mono}>
              <TelemetryText text={d.release} />
            </span>
            <span className={styles.thisBadge}>this release</span>
          </span>
        ) : (
          <Link
            to="/releases/$release"
            params={{ release: d.release }}
            search={(p) => ({
              ...p,
              project: d.project_id,
              projects: undefined,
              environment: d.environment,
              service: d.service_name,
              deployment: d.deployment_id,
            })}
            className={`${styles.releaseLink} ${styles.mono}`}
          >
            <TelemetryText text={d.release} />
          </Link>
        )}
        {highlighted && <span className={styles.highlightBadge}>Linked deployment</span>}
      </div>
      <div className={styles.deploymentTimes}>
        <span title={formatUtcDateTime(d.started_at)}>Started {formatShortUtc(d.started_at)}</span>
        <span title={formatUtcDateTime(d.finished_at)}>
          Finished {formatShortUtc(d.finished_at)} UTC
        </span>
        <span className={styles.duration}>took {formatDuration(deploymentDurationMs(d))}</span>
      </div>
      <div className={styles.deploymentCommit}>
        {d.commit_sha === null ? (
          <span className={styles.noCommit}>No commit recorded</span>
        ) : (
          <>
            <code className={styles.sha} title={d.commit_sha}>
              {shortSha(d.commit_sha)}
            </code>
            <CopyButton value={d.commit_sha} label="Copy sha" />
          </>
        )}
        <span className={styles.deploymentId} title={`Deployment ${d.deployment_id}`}>
          {d.deployment_id}
        </span>
      </div>
    </li>
  );
}

/** The linked deployment is not one of this timeline's: say which it is, or that it is unknown. */
function HighlightElsewhere({ row, id }: { row: ReleaseRow; id: string }) {
  const { data, error, isPending } = useQuery(deploymentQueries.detail(row.project_id, id));
  if (isPending) return null;
  if (error) {
    const missing = error instanceof ApiError && error.status === 404;
    return (
      <Callout tone="warning" role="status">
        {missing
          ? `Deployment ${id} was not found in this project.`
          : `Deployment ${id} could not be loaded.`}
      </Callout>
    );
  }
  return (
    <Callout tone="info" role="status">
      Deployment <code>{id}</code> is of{' '}
      <Link
        to="/releases/$release"
        params={{ release: data.release }}
        search={(p) => ({
          ...p,
          project: data.project_id,
          projects: undefined,
          environment: data.environment,
          service: data.service_name,
          deployment: data.deployment_id,
        })}
      >
        <TelemetryText text={data.release} />
      </Link>{' '}
      ({data.service_name} in {data.environment}), not of this timeline.
    </Callout>
  );
}
