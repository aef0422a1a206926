import { TelemetryText } from '../../ui/telemetry-text';
import type { ReleaseRow } from '../../api/queries/releases';
import { formatBasisPoints } from '../../lib/format-share';
import { formatUtcDateTime } from '../../lib/format-time';
import styles from './evidence.module.css';

/** Release rows: where a release ran and its share of traces with an error. */
export function ReleaseRowEvidence({ rows, empty }: { rows: ReleaseRow[]; empty: string }) {
  if (rows.length === 0) return <p className={styles.muted}>{empty}</p>;
  return (
    <ul className={styles.rows} aria-label="Release rows">
      {rows.map((r) => (
        <li key={`${r.release} ${r.environment} ${r.service_name}`} className={styles.row}>
          <span className={`${styles.grow} ${styles.mono}`}>
            <TelemetryText text={r.release} />
          </span>
          <span className={styles.muted}>
            {r.service_name} · <TelemetryText text={r.environment} />
          </span>
          <span className={styles.num}>{r.issue_count.toLocaleString('en-US')} issues</span>
          <span className={styles.num}>
            {r.trace_health.status === 'unknown'
              ? 'no traces'
              : `${formatBasisPoints(r.trace_health.error_rate_basis_points)} traces with errors`}
          </span>
          <span className={styles.time}>first seen {formatUtcDateTime(r.first_seen_at)}</span>
        </li>
      ))}
    </ul>
  );
}
