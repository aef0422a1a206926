import { TelemetryText } from '../../ui/telemetry-text';
import { useState } from 'react';
import type { RecordDeploymentResult, ReleaseRow } from '../../api/queries/releases';
import { formatUtcDateTime } from '../../lib/format-time';
import { Button } from '../../ui/button';
import { investigationQueries } from '../../api/queries/investigations';
import { InvestigateButton } from '../../widgets/investigate/investigate-button';
import { Callout } from '../../ui/callout';
import { ErrorState } from '../../ui/error-state';
import { PendingState } from '../../ui/pending-state';
import { QueryBoundary } from '../../ui/query-boundary';
import { DeploymentTimeline } from './deployment-timeline';
import { RecordDeploymentDialog } from './record-deployment-dialog';
import { ReleaseComparisonPanel } from './release-comparison-panel';
import styles from './release-detail.module.css';
import { ReleaseSections } from './release-sections';
import { ReleaseVolume } from './release-volume';
import { nextSection, rowCounts, traceHealthView } from './release-view';

const count = (n: number) => n.toLocaleString('en-US');

/**
 * One release row: summary, its telemetry over the header's range, comparison, deployment
 * timeline and its signals.
 */
export function ReleaseDetail({
  row,
  projectName,
  highlight,
  canRecord,
}: {
  row: ReleaseRow;
  projectName: string;
  highlight: string | undefined;
  /** Whether the account may record deployments in this project (owners only). */
  canRecord: boolean;
}) {
  const [recording, setRecording] = useState(false);
  const [recorded, setRecorded] = useState<RecordDeploymentResult | null>(null);
  const health = traceHealthView(row.trace_health);
  const named = nextSection(row.next_action);
  const start = named === null || named === 'none' ? null : named;

  return (
    <>
      <header className={styles.header}>
        <div className={styles.titleRow}>
          <h1 className={styles.title}>
            <TelemetryText text={row.release} />
          </h1>
          <span className={styles.titleActions}>
            {canRecord && (
              <Button
                size="sm"
                className={styles.recordButton}
                onClick={() => {
                  setRecorded(null);
                  setRecording(true);
                }}
              >
                Record deployment
              </Button>
            )}
            <InvestigateButton
              title="Investigate release"
              query={investigationQueries.release({
                project_id: row.project_id,
                release: row.release,
                environment: row.environment,
                service_name: row.service_name,
              })}
            />
          </span>
        </div>
        <div className={styles.identity}>
          <span className={styles.chip}>
            <span className={styles.chipLabel}>Service</span>{' '}
            <TelemetryText text={row.service_name} />
          </span>
          <span className={styles.chip}>
            <span className={styles.chipLabel}>Environment</span>{' '}
            <TelemetryText text={row.environment} />
          </span>
          <span className={styles.chip}>
            <span className={styles.chipLabel}>Project</span> {projectName}
          </span>
          <span className={styles.seen}>
            First seen {formatUtcDateTime(row.first_seen_at)} · last seen{' '}
            {formatUtcDateTime(row.last_seen_at)}
          </span>
        </div>
        {recorded !== null && (
          <div className={styles.recorded}>
            <Callout tone="success" role="status" title="Deployment recorded">
              {/* A retry of an id already holding these values is the same success: the stored
                  time tells a person which recording it was. */}
              <p>
                Deployment <code>{recorded.deployment.deployment_id}</code> (
                {recorded.deployment.status}), stored{' '}
                {formatUtcDateTime(recorded.deployment.created_at)}, is in the timeline below.
              </p>
            </Callout>
          </div>
        )}
      </header>
      {canRecord && (
        <RecordDeploymentDialog
          open={recording}
          onOpenChange={setRecording}
          row={row}
          projectName={projectName}
          onRecorded={(result) => {
            setRecorded(result);
            setRecording(false);
          }}
        />
      )}

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
          <ReleaseVolume row={row} />
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
