import type { ReleaseRow } from '../../api/queries/releases';
import { formatUtcDateTime } from '../../lib/format-time';
import { ErrorState } from '../../ui/error-state';
import { PendingState } from '../../ui/pending-state';
import { QueryBoundary } from '../../ui/query-boundary';
import { DeploymentTimeline } from './deployment-timeline';
import { ReleaseComparisonPanel } from './release-comparison-panel';
import styles from './release-detail.module.css';
import { ReleaseSections } from './release-sections';
import { nextSection, rowCounts, traceHealthView } from './release-view';

const count = (n: number) => n.toLocaleString('en-US');

/** One release row: summary, comparison, deployment timeline and its signals. */
export function ReleaseDetail({
  row,
  projectName,
  highlight,
}: {
  row: ReleaseRow;
  projectName: string;
  highlight: string | undefined;
}) {
  const health = traceHealthView(row.trace_health);
  const named = nextSection(row.next_action);
  const start = named === null || named === 'none' ? null : named;

  return (
    <>
      <header className={styles.header}>
        <h1 className={styles.title}>{row.release}</h1>
        <div className={styles.identity}>
          <span className={styles.chip}>
            <span className={styles.chipLabel}>Service</span> {row.service_name}
          </span>
          <span className={styles.chip}>
            <span className={styles.chipLabel}>Environment</span> {row.environment}
          </span>
          <span className={styles.chip}>
            <span className={styles.chipLabel}>Project</span> {projectName}
          </span>
          <span className={styles.seen}>
            First seen {formatUtcDateTime(row.first_seen_at)} · last seen{' '}
            {formatUtcDateTime(row.last_seen_at)}
          </span>
        </div>
      </header>

      <section className={styles.summary} aria-label="Release summary">
        <div className={styles.health} data-tone={health.tone} data-testid="trace-health">
          <span className={styles.statLabel}>Share of traces with an error span</span>
          <span className={styles.healthValue}>{health.short}</span>
          <span className={styles.healthText}>{health.text}</span>
        </div>
        {rowCounts(row).map((c) => (
          <div key={c.key} className={styles.stat}>
            <span className={styles.statLabel}>{c.label}</span>
            <span className={c.value === 0 ? styles.statZero : styles.statValue}>
              {count(c.value)}
            </span>
          </div>
        ))}
      </section>
      {named === 'none' && (
        <p className={styles.note}>
          This release has no issues, traces, logs, actions or metric samples to inspect yet.
        </p>
      )}

      <div className={styles.columns}>
        <div className={styles.signals}>
          <ReleaseSections row={row} start={start} />
        </div>
        <div className={styles.comparison}>
          <QueryBoundary
            resetKey="comparison"
            pending={<PendingState label="Comparing with the previous release…" />}
            renderError={(error, retry) => <ErrorState error={error} reset={retry} compact />}
          >
            <ReleaseComparisonPanel row={row} />
          </QueryBoundary>
        </div>
        <div className={styles.timeline}>
          <QueryBoundary
            resetKey="timeline"
            pending={<PendingState label="Loading deployments…" />}
            renderError={(error, retry) => <ErrorState error={error} reset={retry} compact />}
          >
            <DeploymentTimeline row={row} highlight={highlight} />
          </QueryBoundary>
        </div>
      </div>
    </>
  );
}
