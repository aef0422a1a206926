import { TelemetryText } from '../../ui/telemetry-text';
import type { Deployment } from '../../api/queries/releases';
import { formatUtcDateTime } from '../../lib/format-time';
import { shortSha } from '../../lib/short-sha';
import { DeploymentStatus } from '../deployment-status/deployment-status';
import styles from './evidence.module.css';

/** Deployments of a bundle, newest finish first. */
export function DeploymentEvidence({
  deployments,
  empty,
}: {
  deployments: Deployment[];
  empty: string;
}) {
  if (deployments.length === 0) return <p className={styles.muted}>{empty}</p>;
  return (
    <ul className={styles.rows} aria-label="Deployments">
      {deployments.map((d) => (
        <li key={d.deployment_id} className={styles.row}>
          <span className={`${styles.grow} ${styles.mono}`}>
            <TelemetryText text={d.release} />
          </span>
          <span className={styles.muted}>
            {d.service_name} · <TelemetryText text={d.environment} />
          </span>
          <DeploymentStatus status={d.status} />
          <span className={styles.time}>finished {formatUtcDateTime(d.finished_at)}</span>
          {d.commit_sha !== null && <code className={styles.mono}>{shortSha(d.commit_sha)}</code>}
        </li>
      ))}
    </ul>
  );
}
