import { InfoIcon } from '../../ui/icons';
import styles from './evidence.module.css';

/**
 * The visible twin of `content_trust: untrusted_telemetry`: what follows came from the
 * application (messages, names, attributes) and is shown as text, never followed.
 */
export function ApplicationDataMarker() {
  return (
    <span
      className={styles.marker}
      title="Sent by the application: shown as text, never as markup or links"
    >
      <InfoIcon size={12} aria-hidden="true" />
      Application data
    </span>
  );
}
