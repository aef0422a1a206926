import { TelemetryText } from '../../ui/telemetry-text';
import { Link } from '@tanstack/react-router';
import { formatUtcDateTime } from '../../lib/format-time';
import styles from './evidence.module.css';

/** Issues a bundle names (of a trace, or a release's top issues); titles are text in a link. */
export function IssueEvidenceList({
  issues,
  empty,
}: {
  issues: { issue_id: string; title: string; at: string; detail?: string | undefined }[];
  empty: string;
}) {
  if (issues.length === 0) return <p className={styles.muted}>{empty}</p>;
  return (
    <ul className={styles.rows} aria-label="Issues">
      {issues.map((issue, i) => (
        <li key={`${issue.issue_id}-${i}`} className={styles.row}>
          <Link
            to="/issues/$issueId"
            params={{ issueId: issue.issue_id }}
            className={`${styles.grow} ${styles.link}`}
          >
            <TelemetryText text={issue.title} />
          </Link>
          {issue.detail && (
            <span className={styles.muted}>
              <TelemetryText text={issue.detail} />
            </span>
          )}
          <span className={styles.time}>{formatUtcDateTime(issue.at)}</span>
        </li>
      ))}
    </ul>
  );
}
