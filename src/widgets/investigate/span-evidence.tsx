import { TelemetryText } from '../../ui/telemetry-text';
import type { SpanInvestigation } from '../../api/queries/investigations';
import { formatDuration } from '../../lib/format-duration';
import { formatUtcDateTime } from '../../lib/format-time';
import { AttributeTree } from '../../ui/attribute-tree';
import { EvidenceSection } from './evidence-section';
import styles from './evidence.module.css';

/** One span: what it is, whether it failed (and its children), its attributes. */
export function SpanEvidence({ bundle }: { bundle: SpanInvestigation }) {
  const { span, error } = bundle;
  return (
    <EvidenceSection title="Span">
      <dl className={styles.facts}>
        <div>
          <dt>Span id</dt>
          <dd className={styles.mono}>{span.span_id}</dd>
        </div>
        <div>
          <dt>Service</dt>
          <dd>
            <TelemetryText text={span.service_name} />
          </dd>
        </div>
        <div>
          <dt>Started</dt>
          <dd>{formatUtcDateTime(span.started_at, { ms: true })}</dd>
        </div>
        <div>
          <dt>Duration</dt>
          <dd className={styles.num}>{formatDuration(span.duration_ms)}</dd>
        </div>
        <div>
          <dt>Children</dt>
          <dd className={styles.num}>
            {error.child_count.toLocaleString('en-US')} (
            {error.child_error_count.toLocaleString('en-US')} with an error)
          </dd>
        </div>
      </dl>
      {error.is_error && (
        <pre className={`${styles.pre} ${styles.error}`} aria-label="Span error">
          <TelemetryText text={error.status_message ?? 'Error (no status message)'} />
        </pre>
      )}
      <AttributeTree attributes={span.attributes} emptyText="This span has no attributes." />
      {span.events.length > 0 && (
        <ul className={styles.rows} aria-label="Span events">
          {span.events.map((event, i) => (
            <li key={i} className={styles.row}>
              <span className={styles.time}>
                {formatUtcDateTime(event.timestamp, { ms: true })}
              </span>
              <span className={styles.grow}>
                <TelemetryText text={event.name} />
              </span>
            </li>
          ))}
        </ul>
      )}
    </EvidenceSection>
  );
}
