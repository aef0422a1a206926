import { TelemetryText } from '../../ui/telemetry-text';
import { markBidiControls } from '../../lib/bidi-controls';
import { Link } from '@tanstack/react-router';
import { memo, type MouseEvent } from 'react';
import type { Deployment, ReleaseRow } from '../../api/queries/releases';
import { formatShortUtc } from '../../lib/format-short-time';
import { formatUtcDateTime } from '../../lib/format-time';
import { shortSha } from '../../lib/short-sha';
import type { NextPageState } from '../../ui/list-end-row';
import { VirtualTable, virtualTableClasses } from '../../ui/virtual-table';
import { DeploymentStatus } from '../../widgets/deployment-status/deployment-status';
import styles from './release-list.module.css';
import { traceHealthView } from './release-view';

const ROW_HEIGHT = 48;
const PREFETCH_ROWS = 20;
const NOUN = { one: 'release row', many: 'release rows' };

const cell = virtualTableClasses.cell;
const rowClass = `${virtualTableClasses.row} ${styles.row}`;

/** The deployments of the rows: loading, read (maybe not to the end) or failed. */
export type DeploymentLookup =
  | { state: 'loading' }
  | { state: 'failed' }
  | { state: 'ready'; latest: (row: ReleaseRow) => Deployment | null; complete: boolean };

export type ReleaseListRow = { id: string; release: ReleaseRow; projectName: string | null };

/**
 * One row per project, release, environment and service, most recently seen first: the five
 * counts, the share of traces with an error span, first and last seen, and the latest
 * deployment of exactly that row. Scrolling near the end loads the next page.
 */
export function ReleaseList({
  rows,
  next,
  deployments,
  onOpen,
}: {
  rows: readonly ReleaseListRow[];
  next: NextPageState;
  deployments: DeploymentLookup;
  onOpen: (row: ReleaseRow) => void;
}) {
  return (
    <VirtualTable
      label="Releases"
      rows={rows}
      noun={NOUN}
      rowHeight={ROW_HEIGHT}
      overscan={8}
      prefetchRows={PREFETCH_ROWS}
      next={next}
      className={styles.table}
      header={
        <>
          <span role="columnheader" className={cell}>
            Release
          </span>
          <span role="columnheader" className={`${cell} ${styles.narrowOnly}`}>
            Signals
          </span>
          <span role="columnheader" className={`${cell} ${styles.num} ${styles.wideOnly}`}>
            Issues
          </span>
          <span role="columnheader" className={`${cell} ${styles.num} ${styles.wideOnly}`}>
            Spans
          </span>
          <span role="columnheader" className={`${cell} ${styles.num} ${styles.wideOnly}`}>
            Logs
          </span>
          <span role="columnheader" className={`${cell} ${styles.num} ${styles.wideOnly}`}>
            Actions
          </span>
          <span
            role="columnheader"
            className={`${cell} ${styles.num} ${styles.wideOnly}`}
            title="Metric samples"
          >
            Metrics
          </span>
          <span role="columnheader" className={cell} title="Share of traces with an error span">
            <span className={styles.wideOnly}>Traces with an error span</span>
            <span className={styles.narrowOnly}>Error-span traces</span>
          </span>
          <span role="columnheader" className={cell}>
            Seen (UTC)
          </span>
          <span role="columnheader" className={cell}>
            Latest deployment
          </span>
        </>
      }
      renderRow={(row, index, top) => (
        <ReleaseRowView
          row={row}
          index={index}
          top={top}
          deployment={deployments.state === 'ready' ? deployments.latest(row.release) : undefined}
          deploymentsState={deployments.state}
          onOpen={onOpen}
        />
      )}
    />
  );
}

const count = (n: number) => n.toLocaleString('en-US');

const ReleaseRowView = memo(function ReleaseRowView({
  row,
  index,
  top,
  deployment,
  deploymentsState,
  onOpen,
}: {
  row: ReleaseListRow;
  index: number;
  top: number;
  deployment: Deployment | null | undefined;
  deploymentsState: DeploymentLookup['state'];
  onOpen: (row: ReleaseRow) => void;
}) {
  const r = row.release;
  const health = traceHealthView(r.trace_health);
  const open = (e: MouseEvent) => {
    if ((e.target as HTMLElement).closest('a')) return;
    onOpen(r);
  };
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      className={rowClass}
      style={{ transform: `translateY(${top}px)` }}
      onClick={open}
    >
      <span role="cell" className={`${cell} ${styles.main}`}>
        <Link
          to="/releases/$release"
          params={{ release: r.release }}
          search={{
            project: r.project_id,
            projects: undefined,
            environment: r.environment,
            service: r.service_name,
          }}
          className={styles.name}
          title={markBidiControls(r.release)}
        >
          <TelemetryText text={r.release} />
        </Link>
        <span className={styles.sub}>
          <span className={styles.service} title={markBidiControls(`Service ${r.service_name}`)}>
            <TelemetryText text={r.service_name} />
          </span>
          <span
            className={styles.environment}
            title={markBidiControls(`Environment ${r.environment}`)}
          >
            <TelemetryText text={r.environment} />
          </span>
          {row.projectName !== null && (
            <span className={styles.project} title={`Project ${row.projectName}`}>
              {row.projectName}
            </span>
          )}
        </span>
      </span>
      <span role="cell" className={`${cell} ${styles.signals} ${styles.narrowOnly}`}>
        <span>
          <Signal value={r.issue_count} one="issue" many="issues" strong />
          {' · '}
          <Signal value={r.trace_span_count} one="span" many="spans" />
          {' · '}
          <Signal value={r.log_count} one="log" many="logs" />
        </span>
        <span>
          <Signal value={r.action_count} one="action" many="actions" />
          {' · '}
          <Signal value={r.metric_count} one="sample" many="samples" />
        </span>
      </span>
      <Count value={r.issue_count} strong one="issue" many="issues" />
      <Count value={r.trace_span_count} one="span" many="spans" />
      <Count value={r.log_count} one="log" many="logs" />
      <Count value={r.action_count} one="action" many="actions" />
      <Count value={r.metric_count} one="metric sample" many="metric samples" />
      <span role="cell" className={`${cell} ${styles.health}`} title={health.text}>
        {health.tone === 'none' ? (
          <span className={styles.muted}>No traces</span>
        ) : (
          <>
            <span className={health.tone === 'error' ? styles.shareError : styles.shareOk}>
              {health.short}
            </span>
            <span className={styles.healthSub}>
              of {count(r.trace_health.trace_count)}{' '}
              {r.trace_health.trace_count === 1 ? 'trace' : 'traces'}
              <span className={styles.wideOnly}> had an error span</span>
            </span>
          </>
        )}
      </span>
      <span role="cell" className={`${cell} ${styles.seen}`}>
        <span title={`Last seen ${formatUtcDateTime(r.last_seen_at)}`}>
          <span className={styles.seenLabel}>Last</span> {formatShortUtc(r.last_seen_at)}
        </span>
        <span title={`First seen ${formatUtcDateTime(r.first_seen_at)}`} className={styles.muted}>
          <span className={styles.seenLabel}>First</span> {formatShortUtc(r.first_seen_at)}
        </span>
      </span>
      <span role="cell" className={`${cell} ${styles.deployment}`}>
        <DeploymentCell deployment={deployment} state={deploymentsState} />
      </span>
    </div>
  );
});

function Signal({
  value,
  one,
  many,
  strong,
}: {
  value: number;
  one: string;
  many: string;
  strong?: boolean;
}) {
  return (
    <span className={value === 0 ? styles.zero : strong ? styles.strong : undefined}>
      {count(value)} {value === 1 ? one : many}
    </span>
  );
}

function Count({
  value,
  one,
  many,
  strong,
}: {
  value: number;
  one: string;
  many: string;
  strong?: boolean;
}) {
  return (
    <span
      role="cell"
      className={`${cell} ${styles.num} ${styles.wideOnly} ${value === 0 ? styles.zero : strong ? styles.strong : ''}`}
      title={`${count(value)} ${value === 1 ? one : many}`}
    >
      {count(value)}
    </span>
  );
}

function DeploymentCell({
  deployment,
  state,
}: {
  deployment: Deployment | null | undefined;
  state: DeploymentLookup['state'];
}) {
  if (state === 'loading') return <span className={styles.muted}>Loading…</span>;
  if (state === 'failed') return <span className={styles.muted}>Not loaded</span>;
  if (!deployment) return <span className={styles.muted}>None recorded</span>;
  return (
    <>
      <DeploymentStatus status={deployment.status} />
      <span className={styles.deploymentSub}>
        <time
          dateTime={deployment.finished_at}
          title={`Finished ${formatUtcDateTime(deployment.finished_at)}`}
        >
          {formatShortUtc(deployment.finished_at)}
        </time>
        {deployment.commit_sha !== null && (
          <code className={styles.sha} title={`Commit ${deployment.commit_sha}`}>
            {shortSha(deployment.commit_sha)}
          </code>
        )}
      </span>
    </>
  );
}
