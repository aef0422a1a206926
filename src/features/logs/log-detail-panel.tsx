import { TelemetryText } from '../../ui/telemetry-text';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useRef, type ReactNode } from 'react';
import { logsQueries, type Log, type LogPage } from '../../api/queries/logs';
import type { Project } from '../../api/queries/projects';
import {
  attributeFiltersProblem,
  sameFilter,
  type AttributeFilter,
} from '../../lib/attribute-filter';
import { formatUtcDateTime } from '../../lib/format-time';
import { useLiveStore } from '../../live/live-store';
import { Button } from '../../ui/button';
import { AttributeTree } from '../../ui/attribute-tree';
import { CopyButton } from '../../ui/copy-button';
import { investigationQueries } from '../../api/queries/investigations';
import { InvestigateButton } from '../../widgets/investigate/investigate-button';
import { ErrorState } from '../../ui/error-state';
import { CloseIcon } from '../../ui/icons';
import { PendingState } from '../../ui/pending-state';
import { useReturnFocusOnClose } from '../../ui/return-focus';
import { liveLogOf } from './live-logs';
import styles from './log-detail-panel.module.css';
import { MAX_COLUMNS } from './logs-search';
import { SeverityBadge } from '../../ui/severity-badge';
import { TriageRuleEditor } from './triage-rule-editor';

/** The row already on screen (a fetched page or the live feed), shown while the log is read. */
function knownLog(client: QueryClient, logId: string): Log | undefined {
  for (const [, data] of client.getQueriesData<{ pages: LogPage[] }>({
    queryKey: logsQueries.lists(),
  })) {
    for (const page of data?.pages ?? []) {
      const found = page.logs.find((l) => l.id === logId);
      if (found) return found;
    }
  }
  const live = useLiveStore.getState().entries.get(`native_log:${logId}`);
  return live ? (liveLogOf(live.data) ?? undefined) : undefined;
}

/** Whether the log links to a trace the console can follow (`inspect_trace`, exact id). */
export function traceLinkOf(log: Log): string | null {
  return log.next_action.code === 'inspect_trace' && log.trace_id ? log.trace_id : null;
}

/**
 * Every field of one log, its attributes as a tree (filter, exclude, show as a column), the
 * link to its trace, and the triage rule of its kind. The selected id is in the URL (`log`).
 */
export function LogDetailPanel({
  logId,
  projects,
  filters,
  columns,
  onClose,
  onFiltersChange,
  onColumnsChange,
}: {
  logId: string;
  projects: readonly Project[];
  filters: readonly AttributeFilter[];
  columns: readonly string[];
  onClose: () => void;
  onFiltersChange: (filters: AttributeFilter[]) => void;
  onColumnsChange: (columns: string[]) => void;
}) {
  const client = useQueryClient();
  const query = useQuery({
    ...logsQueries.detail(logId),
    placeholderData: () => knownLog(client, logId),
  });
  const headingRef = useRef<HTMLHeadingElement>(null);
  // Before the heading takes focus: remember the row's link, and give focus back on close.
  useReturnFocusOnClose(logId);
  useEffect(() => {
    headingRef.current?.focus();
  }, [logId]);

  return (
    <aside
      className={styles.panel}
      aria-labelledby="log-detail-title"
      onKeyDown={(e) => {
        // Menus and popovers opened from the panel live in portals: their Escape is theirs.
        if (e.key !== 'Escape' || e.defaultPrevented) return;
        if (e.currentTarget.contains(e.target as Node)) onClose();
      }}
    >
      <div className={styles.header}>
        <h2 id="log-detail-title" className={styles.title} tabIndex={-1} ref={headingRef}>
          Log details
        </h2>
        <span className={styles.headerActions}>
          <InvestigateButton title="Investigate log" query={investigationQueries.log(logId)} />
          <Button size="sm" variant="ghost" onClick={onClose} aria-label="Close log details">
            <CloseIcon />
          </Button>
        </span>
      </div>
      <div className={styles.scroll}>
        {query.data ? (
          <LogDetail
            log={query.data}
            projects={projects}
            filters={filters}
            columns={columns}
            onFiltersChange={onFiltersChange}
            onColumnsChange={onColumnsChange}
          />
        ) : query.isError ? (
          <ErrorState error={query.error} reset={() => void query.refetch()} compact />
        ) : (
          <PendingState label="Loading the log…" />
        )}
      </div>
    </aside>
  );
}

function LogDetail({
  log,
  projects,
  filters,
  columns,
  onFiltersChange,
  onColumnsChange,
}: {
  log: Log;
  projects: readonly Project[];
  filters: readonly AttributeFilter[];
  columns: readonly string[];
  onFiltersChange: (filters: AttributeFilter[]) => void;
  onColumnsChange: (columns: string[]) => void;
}) {
  const project = projects.find((p) => p.id === log.project_id);
  const canManage = project?.role === 'owner' || project?.role === 'admin';
  const traceId = traceLinkOf(log);
  const overridden = log.triage.effective_severity !== log.severity;

  return (
    <div className={styles.detail}>
      <div className={styles.summary}>
        <SeverityBadge severity={log.triage.effective_severity} captured={log.severity} />
        <time dateTime={log.occurred_at} className={styles.when}>
          {formatUtcDateTime(log.occurred_at, { ms: true })}
        </time>
        {log.triage.ignored && <span className={styles.ignored}>Ignored</span>}
      </div>
      <section aria-label="Message">
        <pre className={styles.message}>
          {log.message === '' ? '(empty message)' : <TelemetryText text={log.message} />}
        </pre>
      </section>

      {traceId && (
        <section className={styles.trace} aria-label="Trace">
          <div className={styles.traceText}>
            <span className={styles.label}>Trace</span>
            <code className={styles.mono}>{traceId}</code>
          </div>
          <div className={styles.traceActions}>
            {/* The whole trace: its spans may sit in other projects than this log. */}
            <Link
              to="/traces/$traceId"
              params={{ traceId }}
              search={{ ...(log.span_id ? { span: log.span_id } : {}) }}
              className={styles.traceLink}
            >
              Open trace
            </Link>
            <Link
              to="/logs"
              search={(prev) => ({
                project: log.project_id,
                projects: undefined,
                since: prev.since,
                until: prev.until,
                trace_id: traceId,
              })}
              className={styles.traceLink}
            >
              Logs of this trace
            </Link>
            <CopyButton value={traceId} label="Copy trace id" />
          </div>
        </section>
      )}

      <dl className={styles.fields}>
        <Field label="Service">
          <TelemetryText text={log.service_name} />
        </Field>
        <Field label="Release">
          <TelemetryText text={log.release} />
        </Field>
        <Field label="Environment">
          <TelemetryText text={log.environment} />
        </Field>
        <Field label="Source">
          <TelemetryText text={log.source} />
        </Field>
        <Field label="Project">{project?.name ?? log.project_id}</Field>
        <Field label="Severity">
          {overridden
            ? `${log.triage.effective_severity} (captured ${log.severity}, set by a rule)`
            : log.severity}
        </Field>
        <Field label="Status">{log.triage.ignored ? 'Ignored by a rule' : 'Active'}</Field>
        {log.span_id && (
          <Field label="Span id" mono>
            {log.span_id}
          </Field>
        )}
        <Field label="SDK">
          {log.sdk_name} {log.sdk_version}
        </Field>
        <Field label="Log id" mono>
          {log.id}
        </Field>
      </dl>

      <section className={styles.section} aria-labelledby="log-attributes-title">
        <h3 id="log-attributes-title" className={styles.sectionTitle}>
          Attributes
        </h3>
        <AttributeTree
          attributes={log.attributes}
          actions={{
            filterProblem: (filter) =>
              filters.some((f) => sameFilter(f, filter))
                ? 'This filter is set already.'
                : attributeFiltersProblem([...filters, filter]),
            addFilter: (filter) => onFiltersChange([...filters, filter]),
            addColumn: (path) => onColumnsChange([...columns, path]),
            hasColumn: (path) => columns.includes(path),
            columnsFull: columns.length >= MAX_COLUMNS,
          }}
        />
      </section>

      <section className={styles.section}>
        <TriageRuleEditor log={log} canManage={canManage} />
      </section>
    </div>
  );
}

function Field({
  label,
  children,
  mono = false,
}: {
  label: string;
  children: ReactNode;
  mono?: boolean;
}) {
  return (
    <>
      <dt>{label}</dt>
      <dd className={mono ? styles.mono : undefined}>{children}</dd>
    </>
  );
}
