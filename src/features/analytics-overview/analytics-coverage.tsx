import { LimitationsList } from '../../ui/limitations-list';
import { NO_ACTIONS_TITLE } from './analytics-text';
import styles from './analytics-coverage.module.css';

/** What a section read covers, first and in words, then the service's limitations folded. */
export function Coverage({
  lines,
  limitations,
}: {
  lines: readonly string[];
  limitations: readonly string[];
}) {
  return (
    <div className={styles.coverage}>
      <ul className={styles.coverageLines} aria-label="Coverage">
        {lines.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      <LimitationsList limitations={limitations} />
    </div>
  );
}

/**
 * An all-zero answer. An unreadable project answers the same way, so this never says the
 * project is empty or readable, only that no actions were counted, and where actions come from.
 */
export function NoActions({ detail = true }: { detail?: boolean }) {
  return (
    <div className={styles.noActions} role="status">
      <p className={styles.noActionsTitle}>{NO_ACTIONS_TITLE}</p>
      {detail && (
        <p className={styles.noActionsText}>
          Product actions arrive through the ingest routes: actions in{' '}
          <code>POST /api/telemetry/ingest</code> or SDK events in <code>POST /v1/events</code>,
          sent with this project&rsquo;s ingest key. A project this account cannot read also answers
          with zero counts, so an empty answer does not confirm access. Widen the time range in the
          header, or choose another project.
        </p>
      )}
    </div>
  );
}
