import { TelemetryText } from '../../ui/telemetry-text';
import { Link } from '@tanstack/react-router';
import { useEffect, useRef, type ReactNode } from 'react';
import { formatUtcDateTime } from '../../lib/format-time';
import { AttributeTree } from '../../ui/attribute-tree';
import { Button } from '../../ui/button';
import { CopyButton } from '../../ui/copy-button';
import { AlertIcon, CloseIcon, IssueIcon, LogIcon } from '../../ui/icons';
import palette from './service-palette.module.css';
import { formatDuration } from '../../lib/format-duration';
import type { SpanNode, SpanTree } from './span-tree';
import styles from './span-detail-panel.module.css';
import { traceLogsSearch } from './trace-links';
import type { TraceSummary } from '../../api/queries/traces';
import { investigationQueries } from '../../api/queries/investigations';
import { InvestigateButton } from '../../widgets/investigate/investigate-button';

/**
 * The selected span: what it is, when it ran, its ids (with copy), attributes, events, and
 * the way out to the logs of this trace and to the issues that carry it. All text from the
 * service is rendered as text.
 */
export function SpanDetailPanel({
  traceId,
  spanId,
  node,
  tree,
  colors,
  summary,
  onOnPath,
  onClose,
  onReveal,
}: {
  traceId: string;
  spanId: string;
  node: SpanNode | null;
  tree: SpanTree;
  colors: ReadonlyMap<string, number>;
  summary: TraceSummary | null;
  onOnPath: boolean;
  onClose: () => void;
  onReveal: (node: number) => void;
}) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    // Only take the focus from nothing: arrow keys in the tree keep theirs.
    if (document.activeElement === document.body) headingRef.current?.focus();
  }, [spanId]);

  return (
    <aside
      className={styles.panel}
      aria-labelledby="span-detail-title"
      onKeyDown={(e) => {
        if (e.key !== 'Escape' || e.defaultPrevented) return;
        if (e.currentTarget.contains(e.target as Node)) onClose();
      }}
    >
      <div className={styles.header}>
        <h2 id="span-detail-title" className={styles.title} tabIndex={-1} ref={headingRef}>
          Span details
        </h2>
        <Button size="sm" variant="ghost" onClick={onClose} aria-label="Close span details">
          <CloseIcon />
        </Button>
      </div>
      <div className={styles.scroll}>
        {node === null ? (
          <p className={styles.missing}>
            Span <code>{spanId}</code> is not among the spans of this trace in the selected scope.
            Choose another project scope, or pick a span in the tree.
          </p>
        ) : (
          <SpanDetail
            traceId={traceId}
            node={node}
            tree={tree}
            colorSlot={colors.get(node.span.service_name) ?? 0}
            summary={summary}
            onPath={onOnPath}
            onReveal={onReveal}
          />
        )}
      </div>
    </aside>
  );
}

function SpanDetail({
  traceId,
  node,
  tree,
  colorSlot,
  summary,
  onPath,
  onReveal,
}: {
  traceId: string;
  node: SpanNode;
  tree: SpanTree;
  colorSlot: number;
  summary: TraceSummary | null;
  onPath: boolean;
  onReveal: (node: number) => void;
}) {
  const span = node.span;
  const spanStart = Date.parse(span.started_at);
  const issues = summary?.issues ?? [];
  const logsSearch = traceLogsSearch(traceId, span.project_id, tree.startMs, tree.durationMs);

  return (
    <div className={styles.detail}>
      <div className={styles.identity} data-color={colorSlot}>
        <p className={styles.spanName}>
          <TelemetryText text={span.name} />
        </p>
        <p className={styles.service}>
          <span className={palette.swatch} aria-hidden="true" />
          <TelemetryText text={span.service_name} />
          {span.operation !== null && (
            <code className={styles.operation}>
              <TelemetryText text={span.operation} />
            </code>
          )}
        </p>
      </div>

      {span.status === 'error' && (
        <div className={styles.error} role="note">
          <AlertIcon size={14} className={styles.errorIcon} />
          <div>
            <p className={styles.errorTitle}>Error span</p>
            {span.status_message !== null && span.status_message !== '' && (
              <p className={styles.errorMessage}>
                <TelemetryText text={span.status_message} />
              </p>
            )}
          </div>
        </div>
      )}
      {onPath && <p className={styles.note}>On the slowest path of this trace.</p>}

      <dl className={styles.fields}>
        <Field label="Duration">
          <span className={styles.num}>{formatDuration(span.duration_ms)}</span>
        </Field>
        <Field label="Starts">
          <span className={styles.num}>+{formatDuration(node.offset)}</span>
          <span className={styles.sub}>{formatUtcDateTime(span.started_at, { ms: true })}</span>
        </Field>
        <Field label="Kind">{span.kind ?? 'not reported'}</Field>
        <Field label="Status">{span.status === 'error' ? 'error' : 'not an error'}</Field>
        <Field label="Span id">
          <span className={styles.idRow}>
            <code className={styles.mono}>{span.span_id}</code>
            <CopyButton value={span.span_id} label="Copy span id" />
          </span>
        </Field>
        <Field label="Parent id">
          {span.parent_span_id === null ? (
            <span className={styles.muted}>none (a root span)</span>
          ) : (
            <span className={styles.idColumn}>
              <span className={styles.idRow}>
                <code className={styles.mono}>{span.parent_span_id}</code>
                <CopyButton value={span.parent_span_id} label="Copy parent id" />
              </span>
              {node.orphan ? (
                <span className={styles.orphan}>parent not received in this trace</span>
              ) : (
                node.parent >= 0 && (
                  <button
                    type="button"
                    className={styles.linkButton}
                    onClick={() => onReveal(node.parent)}
                  >
                    Go to parent span
                  </button>
                )
              )}
            </span>
          )}
        </Field>
        <Field label="Release">
          <TelemetryText text={span.release} />
        </Field>
        <Field label="Environment">
          <TelemetryText text={span.environment} />
        </Field>
        <Field label="SDK">
          {span.sdk_name} {span.sdk_version}
        </Field>
      </dl>

      <section className={styles.section} aria-labelledby="span-links-title">
        <h3 id="span-links-title" className={styles.sectionTitle}>
          Related
        </h3>
        <Link to="/logs" search={logsSearch} className={styles.related}>
          <LogIcon size={14} />
          Logs of this trace
        </Link>
        <div>
          <InvestigateButton
            title="Investigate span"
            label="Investigate span"
            query={investigationQueries.span(traceId, span.span_id, {
              project_id: span.project_id,
              release: span.release,
              environment: span.environment,
            })}
          />
        </div>
        {issues.length === 0 ? (
          <p className={styles.muted}>
            {summary === null
              ? 'Issues of this trace are listed by the trace summary, which did not load.'
              : 'No issue carries this trace.'}
          </p>
        ) : (
          <ul className={styles.issues} aria-label="Issues of this trace">
            {issues.map((issue) => (
              <li key={issue.occurrence_id}>
                <Link
                  to="/issues/$issueId"
                  params={{ issueId: issue.issue_id }}
                  className={styles.related}
                >
                  <IssueIcon size={14} />
                  <span className={styles.issueTitle}>
                    <TelemetryText text={issue.title} />
                  </span>
                </Link>
                {issue.span_id === span.span_id && (
                  <span className={styles.thisSpan}>this span</span>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>

      <section className={styles.section} aria-labelledby="span-attributes-title">
        <h3 id="span-attributes-title" className={styles.sectionTitle}>
          Attributes
        </h3>
        <AttributeTree attributes={span.attributes} emptyText="This span has no attributes." />
      </section>

      <section className={styles.section} aria-labelledby="span-events-title">
        <h3 id="span-events-title" className={styles.sectionTitle}>
          Events{span.events.length > 0 ? ` (${span.events.length})` : ''}
        </h3>
        {span.events.length === 0 ? (
          <p className={styles.muted}>This span recorded no events.</p>
        ) : (
          <ol className={styles.events}>
            {span.events.map((event, i) => {
              const at = Date.parse(event.timestamp) - spanStart;
              return (
                <li key={i} className={styles.event}>
                  <p className={styles.eventHead}>
                    <span className={styles.eventName}>
                      <TelemetryText text={event.name} />
                    </span>
                    <span
                      className={styles.num}
                      title={formatUtcDateTime(event.timestamp, { ms: true })}
                    >
                      {Number.isFinite(at)
                        ? `${at < 0 ? '−' : '+'}${formatDuration(Math.abs(at))} from span start`
                        : event.timestamp}
                    </span>
                  </p>
                  <AttributeTree
                    attributes={event.attributes}
                    emptyText="No attributes on this event."
                  />
                </li>
              );
            })}
          </ol>
        )}
      </section>
    </div>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </>
  );
}
