import { TelemetryText } from '../../ui/telemetry-text';
import { useQuery } from '@tanstack/react-query';
import { issueDetailQueries, TRACE_LOGS_LIMIT } from '../../api/queries/issue-detail';
import { formatUtcTime } from '../../lib/format-time';
import { ErrorState } from '../../ui/error-state';
import { PendingState } from '../../ui/pending-state';
import { SeverityBadge } from '../../ui/severity-badge';
import styles from './trace-logs.module.css';

/** The first logs of the occurrence's trace (exact `trace_id`), newest first. */
export function TraceLogs({
  issueId,
  projectId,
  traceId,
}: {
  issueId: string;
  projectId: string;
  traceId: string;
}) {
  const query = useQuery(issueDetailQueries.traceLogs(issueId, projectId, traceId));
  if (query.isPending) return <PendingState label="Loading logs of this trace…" />;
  if (query.isError) {
    return <ErrorState error={query.error} compact reset={() => void query.refetch()} />;
  }
  const { logs, more } = query.data;
  if (logs.length === 0) {
    return <p className={styles.muted}>No logs of this trace in this project.</p>;
  }
  return (
    <>
      <ul className={styles.traceLogs} aria-label="Logs of this trace">
        {logs.map((log) => (
          <li key={log.id} className={styles.traceLog}>
            <span className={styles.traceLogTime}>
              {formatUtcTime(log.occurred_at).replace(' UTC', '')}
            </span>
            <SeverityBadge
              severity={log.triage.effective_severity}
              captured={log.severity}
              size="sm"
            />
            <span className={styles.traceLogService}>
              <TelemetryText text={log.service_name} />
            </span>
            <span className={styles.traceLogMsg}>
              <TelemetryText text={log.message} />
            </span>
          </li>
        ))}
      </ul>
      {more && (
        <p className={styles.muted}>
          The first {TRACE_LOGS_LIMIT} logs are shown; open “Logs of this trace” for all of them.
        </p>
      )}
    </>
  );
}
