import { TelemetryText } from '../../ui/telemetry-text';
import type { InvestigationSubject } from '../../api/queries/investigations';
import { formatUtcDateTime } from '../../lib/format-time';
import { ApplicationDataMarker } from './application-data-marker';
import styles from './evidence.module.css';

const KIND_LABELS: Record<InvestigationSubject['kind'], string> = {
  issue: 'Issue',
  trace: 'Trace',
  span: 'Span',
  log: 'Log',
  action: 'Action',
  metric: 'Metric',
  release: 'Release',
};

/** What the bundle is about: kind, name, status, time and where it ran. */
export function SubjectHeader({ subject }: { subject: InvestigationSubject }) {
  const facts: [string, string | null][] = [
    // Statuses are codes (`errors_observed`): shown as words.
    ['Status', subject.status === null ? null : subject.status.replaceAll('_', ' ')],
    ['Time', subject.occurred_at === null ? null : formatUtcDateTime(subject.occurred_at)],
    ['Service', subject.service_name],
    ['Environment', subject.environment],
    ['Release', subject.release],
  ];
  return (
    <header className={styles.subject}>
      <div className={styles.subjectTop}>
        <span className={styles.kind}>{KIND_LABELS[subject.kind]}</span>
        {subject.content_trust === 'untrusted_telemetry' && <ApplicationDataMarker />}
      </div>
      <p className={styles.subjectName}>
        <TelemetryText text={subject.name ?? subject.id} />
      </p>
      <dl className={styles.facts}>
        {facts
          .filter((f): f is [string, string] => f[1] !== null)
          .map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>
                <TelemetryText text={value} />
              </dd>
            </div>
          ))}
      </dl>
      <p className={styles.trustNote}>
        Names, messages and attributes below were sent by the application. They are shown as text:
        no markup is rendered and nothing in them is followed.
      </p>
    </header>
  );
}
