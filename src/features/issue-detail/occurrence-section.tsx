import { TelemetryText } from '../../ui/telemetry-text';
import { useMutation, useQuery, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import {
  issueDetailQueries,
  type IssueDetail,
  type Occurrence,
  type OccurrenceCursor,
} from '../../api/queries/issue-detail';
import { formatUtcDateTime } from '../../lib/format-time';
import { AttributeTree } from '../../ui/attribute-tree';
import { Button } from '../../ui/button';
import { CopyButton } from '../../ui/copy-button';
import { EmptyState } from '../../ui/empty-state';
import { ErrorState } from '../../ui/error-state';
import { PendingState } from '../../ui/pending-state';
import { FixCheckButton } from '../../widgets/investigate/fix-check-button';
import { IssueInvestigateButton } from '../../widgets/investigate/issue-investigate-button';
import { QueryBoundary } from '../../ui/query-boundary';
import { BreadcrumbList } from '../../widgets/breadcrumb-list/breadcrumb-list';
import styles from './occurrence-section.module.css';
import section from './issue-section.module.css';
import { occurrenceOf, occurrenceSearch, type StackView } from './issue-search';
import { relativeTime } from './relative-time';
import { StackTraceView } from './stack-trace-view';
import { TraceLogs } from './trace-logs';
import { useIssueSearch, useSetIssueSearch } from './use-issue-search';

/**
 * The occurrence being read (the latest first) and the pager through older ones, kept in the
 * URL (`occurrence`, `before`) so the occurrence paged to is a link. "Older" follows the
 * service's `next_cursor` exactly; "Newer" goes back to the cursor that read the newer one,
 * remembered from paging or, on a link opened afresh, found again from the latest.
 */
export function OccurrenceSection({ issue }: { issue: IssueDetail }) {
  const search = useIssueSearch();
  const setSearch = useSetIssueSearch();
  const queryClient = useQueryClient();
  const { position, cursor } = occurrenceOf(search);
  const cursorAt = (at: number) => issueDetailQueries.occurrenceCursor(issue.id, at);
  const go = (at: number, atCursor: OccurrenceCursor | null) =>
    setSearch(occurrenceSearch(at, atCursor));
  const newer = useMutation({
    mutationFn: () => queryClient.fetchQuery(cursorAt(position - 1)),
    // The issue may have lost occurrences since (retention): then the latest is read.
    onSuccess: (found) => (found === null ? go(1, null) : go(position - 1, found)),
  });
  const stack: StackView = search.stack ?? 'frames';
  return (
    <section className={section.card} aria-labelledby="occurrence-title">
      <QueryBoundary
        resetKey={JSON.stringify(cursor)}
        pending={
          <div className={section.cardBody}>
            <PendingState label="Loading occurrence…" />
          </div>
        }
        renderError={(error, retry) => (
          <div className={section.cardBody}>
            <h2 id="occurrence-title" className={section.sectionTitle}>
              Occurrence
            </h2>
            <ErrorState error={error} compact reset={retry} />
          </div>
        )}
      >
        <OccurrencePage
          issue={issue}
          cursor={cursor}
          position={position}
          newerPending={newer.isPending}
          onOlder={(next) => {
            newer.reset();
            // Remember both cursors, so "Newer" from the next one needs no read.
            queryClient.setQueryData(cursorAt(position).queryKey, cursor);
            queryClient.setQueryData(cursorAt(position + 1).queryKey, next);
            go(position + 1, next);
          }}
          onNewer={() => (position <= 2 ? go(1, null) : newer.mutate())}
          onLatest={() => {
            newer.reset();
            go(1, null);
          }}
          stack={stack}
          onStackChange={(view) =>
            setSearch({ stack: view === 'frames' ? undefined : view }, { replace: true })
          }
        />
      </QueryBoundary>
      {newer.isError && (
        <div className={section.cardBody}>
          <ErrorState error={newer.error} compact reset={() => newer.mutate()} />
        </div>
      )}
    </section>
  );
}

function OccurrencePage({
  issue,
  cursor,
  position,
  newerPending,
  onOlder,
  onNewer,
  onLatest,
  stack,
  onStackChange,
}: {
  issue: IssueDetail;
  cursor: OccurrenceCursor | null;
  position: number;
  newerPending: boolean;
  onOlder: (cursor: OccurrenceCursor) => void;
  onNewer: () => void;
  onLatest: () => void;
  stack: StackView;
  onStackChange: (view: StackView) => void;
}) {
  const { data: page } = useSuspenseQuery(issueDetailQueries.occurrence(issue.id, cursor));
  // Read the next older page ahead, so "Older" answers at once.
  useQuery({
    ...issueDetailQueries.occurrence(issue.id, page.next_cursor),
    enabled: page.next_cursor !== null,
  });
  const occurrence = page.occurrence;
  const older = page.next_cursor;

  return (
    <>
      <div className={styles.pager}>
        <h2 id="occurrence-title" className={section.sectionTitle}>
          {position === 1 ? 'Latest occurrence' : 'Occurrence'}
        </h2>
        {occurrence && (
          <span className={styles.pagerWhen} title={formatUtcDateTime(occurrence.occurred_at)}>
            {formatUtcDateTime(occurrence.occurred_at)} · {relativeTime(occurrence.occurred_at)}
          </span>
        )}
        <span className={styles.pagerPos}>
          {position.toLocaleString('en-US')} of {issue.occurrence_count.toLocaleString('en-US')}
        </span>
        <div className={styles.pagerButtons}>
          <IssueInvestigateButton issueId={issue.id} viewedOccurrenceId={occurrence?.id ?? null} />
          {occurrence && (
            <FixCheckButton
              issueId={issue.id}
              projectId={issue.project_id}
              baseline={{
                id: occurrence.id,
                occurredAt: occurrence.occurred_at,
                release: occurrence.release,
                environment: occurrence.environment,
                serviceName: occurrence.service_name,
              }}
            />
          )}
          <Button size="sm" variant="ghost" onClick={onLatest} disabled={position === 1}>
            Latest
          </Button>
          <Button
            size="sm"
            onClick={onNewer}
            disabled={position === 1 || newerPending}
            aria-label="Newer occurrence"
          >
            ‹ Newer
          </Button>
          <Button
            size="sm"
            onClick={() => older && onOlder(older)}
            disabled={older === null}
            aria-label="Older occurrence"
          >
            Older ›
          </Button>
        </div>
      </div>
      {occurrence === null ? (
        <div className={section.cardBody}>
          <EmptyState title="No occurrences to show">
            The service returned no occurrence on this page. They may have been removed by
            retention.
          </EmptyState>
        </div>
      ) : (
        <OccurrenceBody
          key={occurrence.id}
          occurrence={occurrence}
          issue={issue}
          stack={stack}
          onStackChange={onStackChange}
        />
      )}
    </>
  );
}

function OccurrenceBody({
  occurrence,
  issue,
  stack,
  onStackChange,
}: {
  occurrence: Occurrence;
  issue: IssueDetail;
  stack: StackView;
  onStackChange: (view: StackView) => void;
}) {
  const diagnostics = occurrence.diagnostics;
  const exception = diagnostics?.exception;
  return (
    <div className={styles.occurrence}>
      <dl className={styles.occFacts}>
        <div>
          <dt>Release</dt>
          <dd className={styles.mono} data-testid="occurrence-release">
            <TelemetryText text={occurrence.release} />
          </dd>
        </div>
        <div>
          <dt>Environment</dt>
          <dd>
            <TelemetryText text={occurrence.environment} />
          </dd>
        </div>
        <div>
          <dt>Service</dt>
          <dd>
            <TelemetryText text={occurrence.service_name} />
          </dd>
        </div>
        <div>
          <dt>SDK</dt>
          <dd>
            {occurrence.sdk_name} {occurrence.sdk_version}
          </dd>
        </div>
        <div>
          <dt>Event id</dt>
          <dd className={styles.mono}>{occurrence.id}</dd>
        </div>
      </dl>

      <section className={styles.block} aria-labelledby="exception-title">
        <h3 id="exception-title" className={styles.blockTitle}>
          Exception
        </h3>
        <div className={styles.exception}>
          <p className={styles.excType}>
            <TelemetryText text={exception?.type ?? occurrence.title} />
          </p>
          <p className={styles.excValue}>
            <TelemetryText text={exception?.value ?? occurrence.message} />
          </p>
        </div>
        {occurrence.stack_trace ? (
          <StackTraceView
            text={occurrence.stack_trace}
            view={stack}
            onViewChange={onStackChange}
            exceptionLine={
              exception
                ? `${exception.type}${exception.value ? `: ${exception.value}` : ''}`
                : occurrence.message
            }
          />
        ) : (
          <p className={styles.muted}>This occurrence was sent without a stack trace.</p>
        )}
        {/* The service stores no release artifacts: it never sends `symbolication`. */}
        {!('symbolication' in issue) && occurrence.stack_trace && (
          <p className={styles.note}>
            Source context unavailable: no release artifacts were uploaded for this release.
          </p>
        )}
      </section>

      {diagnostics?.breadcrumbs !== undefined && (
        <section className={styles.block} aria-labelledby="breadcrumbs-title">
          <h3 id="breadcrumbs-title" className={styles.blockTitle}>
            Breadcrumbs
            <span className={styles.blockCount}>{diagnostics.breadcrumbs.length}</span>
          </h3>
          <BreadcrumbList
            breadcrumbs={diagnostics.breadcrumbs}
            truncated={diagnostics.breadcrumbs_truncated}
          />
        </section>
      )}

      <section className={styles.block} aria-labelledby="trace-title">
        <h3 id="trace-title" className={styles.blockTitle}>
          Trace
        </h3>
        {occurrence.trace_id ? (
          <>
            <div className={styles.trace}>
              <span className={styles.traceLabel}>Trace id</span>
              <code className={styles.mono}>{occurrence.trace_id}</code>
              {occurrence.span_id && (
                <>
                  <span className={styles.traceLabel}>Span</span>
                  <code className={styles.mono}>{occurrence.span_id}</code>
                </>
              )}
              <span className={styles.traceActions}>
                <CopyButton value={occurrence.trace_id} label="Copy trace id" />
                <Link
                  to="/traces/$traceId"
                  params={{ traceId: occurrence.trace_id }}
                  search={{ ...(occurrence.span_id ? { span: occurrence.span_id } : {}) }}
                  className={styles.link}
                >
                  Open trace
                </Link>
                <Link
                  to="/logs"
                  search={{ project: occurrence.project_id, trace_id: occurrence.trace_id }}
                  className={styles.link}
                >
                  Logs of this trace
                </Link>
              </span>
            </div>
            <TraceLogs
              issueId={issue.id}
              projectId={occurrence.project_id}
              traceId={occurrence.trace_id}
            />
          </>
        ) : (
          <p className={styles.muted}>This occurrence is not linked to a trace.</p>
        )}
      </section>

      <section className={styles.block} aria-labelledby="attributes-title">
        <h3 id="attributes-title" className={styles.blockTitle}>
          Attributes
        </h3>
        <AttributeTree
          attributes={occurrence.attributes}
          emptyText="This occurrence has no attributes."
        />
      </section>
    </div>
  );
}
