import styles from './severity-badge.module.css';

export type SeverityName = 'info' | 'warning' | 'error' | 'critical';

export const severityLabels: Record<SeverityName, string> = {
  info: 'Info',
  warning: 'Warning',
  error: 'Error',
  critical: 'Critical',
};

function isSeverity(value: string): value is SeverityName {
  return value in severityLabels;
}

/**
 * A severity as colour and word together (the colour is never alone). Shows the effective
 * severity; when a rule changed it, says so beside the captured one.
 */
export function SeverityBadge({
  severity,
  captured,
  size = 'md',
}: {
  severity: string;
  /** The captured severity, when a rule shows another one. */
  captured?: string | undefined;
  size?: 'sm' | 'md';
}) {
  const label = isSeverity(severity) ? severityLabels[severity] : severity;
  const changed = captured !== undefined && captured !== severity;
  return (
    <span
      className={`${styles.badge} ${size === 'sm' ? styles.sm : ''}`}
      data-severity={severity}
      title={changed ? `${label}, set by a rule (captured: ${captured})` : label}
    >
      <span className={styles.swatch} aria-hidden="true" />
      <span className={styles.label}>{label}</span>
      {changed && (
        <>
          {' '}
          <span className={styles.ruleMark}>rule</span>
        </>
      )}
    </span>
  );
}
