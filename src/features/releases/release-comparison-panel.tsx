import { markBidiControls } from '../../lib/bidi-controls';
import { TelemetryText } from '../../ui/telemetry-text';
import { useSuspenseInfiniteQuery, useSuspenseQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useMemo } from 'react';
import { issuesQueries, type Issue } from '../../api/queries/issues';
import { deploymentQueries, releaseQueries, type ReleaseRow } from '../../api/queries/releases';
import { formatPointChange } from '../../lib/format-share';
import { formatShortUtc } from '../../lib/format-short-time';
import { AlertIcon, CheckIcon, InfoIcon } from '../../ui/icons';
import { SeverityBadge } from '../../ui/severity-badge';
import { releaseReadFilters } from './release-links';
import styles from './release-panels.module.css';
import {
  errorShareChange,
  newIssues,
  previousRelease,
  releaseStart,
  type PreviousRelease,
} from './release-comparison';
import { traceHealthView } from './release-view';

const count = (n: number) => n.toLocaleString('en-US');

/**
 * This release against the previous one of the same service and environment in the same
 * project: how the previous one was chosen, the change of the share of traces with an error
 * span (percentage points), and the issues new in this release.
 */
export function ReleaseComparisonPanel({ row }: { row: ReleaseRow }) {
  const { data: siblings } = useSuspenseQuery(
    releaseQueries.rows({
      project_id: row.project_id,
      environment: row.environment,
      service_name: row.service_name,
    }),
  );
  const { data: history } = useSuspenseQuery(
    deploymentQueries.history({ project_id: row.project_id }),
  );
  const { data: releaseRows } = useSuspenseQuery(
    releaseQueries.rows({
      project_id: row.project_id,
      release: row.release,
      service_name: row.service_name,
    }),
  );
  const prev = useMemo(
    () => previousRelease(row, siblings.releases, history.deployments),
    [row, siblings, history],
  );
  const start = releaseStart(row, releaseRows.releases);

  return (
    <section className={styles.panel} aria-label="Comparison with the previous release">
      <h2 className={styles.panelTitle}>Compared with the previous release</h2>
      {prev === null ? (
        <p className={styles.text}>
          No earlier release of{' '}
          <strong>
            <TelemetryText text={row.service_name} />
          </strong>{' '}
          in{' '}
          <strong>
            <TelemetryText text={row.environment} />
          </strong>
          : no succeeded deployment of another release finished before this one’s, and no other
          release was last seen before this one was first seen.
        </p>
      ) : (
        <>
          <PreviousLine row={row} prev={prev} />
          <ShareChange row={row} prev={prev} />
          {prev.row === null ? (
            <NewIssuesAlone row={row} start={start} />
          ) : (
            <NewIssuesAgainst row={row} previous={prev.row} start={start} />
          )}
        </>
      )}
    </section>
  );
}

function PreviousLine({ row, prev }: { row: ReleaseRow; prev: PreviousRelease }) {
  return (
    <p className={styles.text}>
      Previous:{' '}
      <Link
        to="/releases/$release"
        params={{ release: prev.release }}
        search={(p) => ({
          ...p,
          project: row.project_id,
          projects: undefined,
          environment: row.environment,
          service: row.service_name,
          deployment: prev.basis === 'deployment' ? prev.deployment.deployment_id : undefined,
        })}
        className={styles.releaseLink}
      >
        <TelemetryText text={prev.release} />
      </Link>
      <span className={styles.basis}>
        {prev.basis === 'deployment'
          ? ` — the release of the last succeeded deployment before this one (finished ${formatShortUtc(prev.deployment.finished_at)} UTC).`
          : ' — no deployments recorded to compare with, so the release last seen before this one was first seen.'}
      </span>
    </p>
  );
}

function ShareChange({ row, prev }: { row: ReleaseRow; prev: PreviousRelease }) {
  const current = traceHealthView(row.trace_health);
  if (prev.row === null) {
    return (
      <div className={styles.metric}>
        <span className={styles.metricLabel}>Share of traces with an error span</span>
        <span className={styles.metricText}>
          {current.text}. The previous release sent no telemetry, so there is nothing to compare.
        </span>
      </div>
    );
  }
  const previous = traceHealthView(prev.row.trace_health);
  const change = errorShareChange(row, prev.row);
  return (
    <div className={styles.metric} data-testid="error-share-change">
      <span className={styles.metricLabel}>Share of traces with an error span</span>
      <div className={styles.metricRow}>
        <span className={styles.metricValue}>{current.short}</span>
        <span className={styles.metricVs}>vs {previous.short}</span>
        {change.kind === 'change' && (
          <span
            className={styles.change}
            data-direction={change.points > 0 ? 'up' : change.points < 0 ? 'down' : 'same'}
          >
            {change.points > 0 ? (
              <AlertIcon size={13} />
            ) : change.points < 0 ? (
              <CheckIcon size={13} />
            ) : null}
            {formatPointChange(change.points)}
            <span className={styles.changeWords}>
              {change.points > 0 ? 'more' : change.points < 0 ? 'fewer' : 'no change'}
            </span>
          </span>
        )}
      </div>
      <span className={styles.metricText}>
        {change.kind === 'change'
          ? `This: ${current.text}. Previous: ${previous.text}. A change in percentage points.`
          : change.which === 'both'
            ? 'Neither release has traces.'
            : change.which === 'current'
              ? `This release has no traces; the previous: ${previous.text}.`
              : `The previous release has no traces; this one: ${current.text}.`}
      </span>
    </div>
  );
}

function NewIssuesAgainst({
  row,
  previous,
  start,
}: {
  row: ReleaseRow;
  previous: ReleaseRow;
  start: string;
}) {
  const current = useSuspenseInfiniteQuery(issuesQueries.list(releaseReadFilters(row)));
  const before = useSuspenseInfiniteQuery(issuesQueries.list(releaseReadFilters(previous)));
  const issues = useMemo(() => current.data.pages.flatMap((p) => p.issues), [current.data]);
  const prevIssues = useMemo(() => before.data.pages.flatMap((p) => p.issues), [before.data]);
  return (
    <NewIssuesList
      issues={newIssues(start, issues, prevIssues)}
      start={start}
      partial={current.hasNextPage || before.hasNextPage}
      loaded={issues.length}
    />
  );
}

function NewIssuesAlone({ row, start }: { row: ReleaseRow; start: string }) {
  const current = useSuspenseInfiniteQuery(issuesQueries.list(releaseReadFilters(row)));
  const issues = useMemo(() => current.data.pages.flatMap((p) => p.issues), [current.data]);
  return (
    <NewIssuesList
      issues={newIssues(start, issues, [])}
      start={start}
      partial={current.hasNextPage}
      loaded={issues.length}
    />
  );
}

function NewIssuesList({
  issues,
  partial,
  loaded,
  start,
}: {
  issues: Issue[];
  partial: boolean;
  loaded: number;
  start: string;
}) {
  return (
    <div className={styles.newIssues} data-testid="new-issues">
      <h3 className={styles.subTitle}>
        {issues.length === 0
          ? 'No new issues'
          : `${count(issues.length)} new ${issues.length === 1 ? 'issue' : 'issues'}`}
      </h3>
      {issues.length > 0 && (
        <ul className={styles.issueList}>
          {issues.map((issue) => (
            <li key={issue.id} className={styles.issue}>
              <SeverityBadge severity={issue.triage.effective_severity} size="sm" />
              <Link
                to="/issues/$issueId"
                params={{ issueId: issue.id }}
                className={styles.issueTitle}
                title={markBidiControls(issue.title)}
              >
                {issue.title}
              </Link>
              <span className={styles.issueMeta} title="First seen (UTC)">
                {formatShortUtc(issue.first_seen_at)}
              </span>
            </li>
          ))}
        </ul>
      )}
      <p className={styles.rule}>
        <InfoIcon size={12} className={styles.ruleIcon} />
        <span>
          New: listed for this release (its latest occurrence is here), first seen at or after the
          release’s first event in any environment ({formatShortUtc(start)} UTC), and not listed for
          the previous release.
          {partial ? ` Among the first ${count(loaded)} issues listed.` : ''}
        </span>
      </p>
    </div>
  );
}
