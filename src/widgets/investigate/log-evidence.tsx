import { TelemetryText } from '../../ui/telemetry-text';
import type { InvestigationLog } from '../../api/queries/investigations';
import { formatUtcDateTime } from '../../lib/format-time';
import { SeverityBadge } from '../../ui/severity-badge';
import styles from './evidence.module.css';

/** Logs of a bundle, newest first as the service sends them; messages are text. */
export function LogEvidence({ logs, empty }: { logs: InvestigationLog[]; empty: string }) {
  if (logs.length === 0) return <p className={styles.muted}>{empty}</p>;
  return (
    <ul className={styles.rows} aria-label="Logs">
      {logs.map((log) => (
        <li key={log.id} className={styles.row}>
          <span className={styles.time}>{formatUtcDateTime(log.occurred_at, { ms: true })}</span>
          <SeverityBadge severity={log.effective_severity} captured={log.severity} size="sm" />
          <span className={styles.muted}>
            <TelemetryText text={log.service_name} />
          </span>
          <span className={styles.grow}>
            <TelemetryText text={log.message} />
          </span>
        </li>
      ))}
    </ul>
  );
}
