import { TelemetryText } from '../../ui/telemetry-text';
import type { TraceSummarySpan } from '../../api/queries/investigations';
import { formatDuration } from '../../lib/format-duration';
import styles from './evidence.module.css';

/** Spans of a summary (error spans, a slowest path, a parent chain): name, service, time, error. */
export function SpanEvidenceList({
  spans,
  label,
  empty,
}: {
  spans: TraceSummarySpan[];
  label: string;
  empty: string;
}) {
  if (spans.length === 0) return <p className={styles.muted}>{empty}</p>;
  return (
    <ul className={styles.rows} aria-label={label}>
      {spans.map((span) => (
        <li key={span.span_id} className={styles.row}>
          <span className={styles.grow}>
            <TelemetryText text={span.name} />
          </span>
          <span className={styles.muted}>
            <TelemetryText text={span.service_name} />
          </span>
          <span className={styles.num}>{formatDuration(span.duration_ms)}</span>
          {span.status === 'error' && (
            <span className={`${styles.grow} ${styles.error}`}>
              <TelemetryText
                text={`Error${span.status_message ? `: ${span.status_message}` : ''}`}
              />
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}
