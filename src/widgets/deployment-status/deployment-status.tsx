import type { Deployment } from '../../api/queries/releases';
import { AlertIcon, CheckIcon } from '../../ui/icons';
import styles from './deployment-status.module.css';

/** A deployment's recorded status: an icon and the word, coloured. */
export function DeploymentStatus({ status }: { status: Deployment['status'] }) {
  const failed = status === 'failed';
  const Icon = failed ? AlertIcon : CheckIcon;
  return (
    <span className={`${styles.status} ${failed ? styles.failed : styles.succeeded}`}>
      <Icon size={13} className={styles.icon} />
      {failed ? 'Failed' : 'Succeeded'}
    </span>
  );
}
