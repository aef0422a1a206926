import { TelemetryText } from '../../ui/telemetry-text';
import { markBidiControls } from '../../lib/bidi-controls';
import { Link } from '@tanstack/react-router';
import { memo } from 'react';
import type { Issue } from '../../api/queries/issues';
import { formatUtcDateTime } from '../../lib/format-time';
import { SeverityBadge } from '../../ui/severity-badge';
import { Avatar } from '../../ui/avatar';
import type { NextPageState } from '../../ui/list-end-row';
import { Sparkline } from '../../ui/sparkline';
import { VirtualTable, virtualTableClasses } from '../../ui/virtual-table';
import { culpritOf, initialsOf, priorityLabels, relativeTime } from './board';
import styles from './issue-list.module.css';

const ROW_HEIGHT = 52;
const PREFETCH_ROWS = 20;

const NOUN = { one: 'issue', many: 'issues' };
const cell = virtualTableClasses.cell;
const rowClass = `${virtualTableClasses.row} ${styles.row}`;

/** The issues as a virtualized table; the focused row follows j/k, checkboxes select. */
export function IssueList({
  rows,
  focusedIndex,
  selected,
  fresh,
  now,
  histograms,
  bucketSeconds,
  sparklineLabel,
  next,
  onFocusRow,
  onToggle,
}: {
  rows: readonly Issue[];
  focusedIndex: number;
  selected: ReadonlySet<string>;
  /** Ids that arrived from the live feed while the board was open. */
  fresh: ReadonlySet<string>;
  now: number;
  /** Occurrence counts per bucket by issue id; absent until its histogram arrives. */
  histograms: ReadonlyMap<string, readonly number[]>;
  bucketSeconds: number;
  /** What the sparklines cover, e.g. "Occurrences, last 24 hours". */
  sparklineLabel: string;
  next: NextPageState;
  onFocusRow: (index: number) => void;
  onToggle: (issueId: string) => void;
}) {
  return (
    <VirtualTable
      label="Issues"
      rows={rows}
      noun={NOUN}
      rowHeight={ROW_HEIGHT}
      overscan={8}
      prefetchRows={PREFETCH_ROWS}
      next={next}
      scrollToIndex={focusedIndex}
      className={styles.table}
      scrollerClassName={styles.scroller}
      header={
        <>
          <span role="columnheader" className={styles.checkCell}>
            <span className="visually-hidden">Selected</span>
          </span>
          <span role="columnheader" className={cell}>
            Issue
          </span>
          <span role="columnheader" className={`${cell} ${styles.num}`}>
            Events
          </span>
          <span role="columnheader" className={cell}>
            Trend
          </span>
          <span role="columnheader" className={cell}>
            Seen
          </span>
          <span role="columnheader" className={`${cell} ${styles.wideOnly}`}>
            Release
          </span>
          <span role="columnheader" className={cell}>
            Priority
          </span>
          <span role="columnheader" className={cell}>
            Assignee
          </span>
        </>
      }
      renderRow={(issue, index, top) => (
        <IssueRow
          issue={issue}
          index={index}
          top={top}
          focused={index === focusedIndex}
          selected={selected.has(issue.id)}
          fresh={fresh.has(issue.id)}
          now={now}
          counts={histograms.get(issue.id)}
          bucketSeconds={bucketSeconds}
          sparklineLabel={sparklineLabel}
          onFocusRow={onFocusRow}
          onToggle={onToggle}
        />
      )}
    />
  );
}

const IssueRow = memo(function IssueRow({
  issue,
  index,
  top,
  focused,
  selected,
  fresh,
  now,
  counts,
  bucketSeconds,
  sparklineLabel,
  onFocusRow,
  onToggle,
}: {
  issue: Issue;
  index: number;
  top: number;
  focused: boolean;
  selected: boolean;
  fresh: boolean;
  now: number;
  counts: readonly number[] | undefined;
  bucketSeconds: number;
  sparklineLabel: string;
  onFocusRow: (index: number) => void;
  onToggle: (issueId: string) => void;
}) {
  const severity = issue.triage.effective_severity;
  const assignee = issue.assignee;
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      aria-selected={selected}
      aria-current={focused ? 'true' : undefined}
      className={rowClass}
      data-severity={severity}
      data-focused={focused || undefined}
      data-selected={selected || undefined}
      data-fresh={fresh || undefined}
      style={{ transform: `translateY(${top}px)` }}
      onMouseDown={() => onFocusRow(index)}
    >
      <span role="cell" className={styles.checkCell}>
        <input
          type="checkbox"
          className={styles.check}
          checked={selected}
          aria-label={`Select ${issue.title}`}
          onChange={() => onToggle(issue.id)}
        />
      </span>
      <span role="cell" className={`${cell} ${styles.main}`}>
        <span className={styles.titleLine}>
          <SeverityBadge severity={severity} captured={issue.severity} size="sm" />{' '}
          {/* The space keeps "Warning" and the title apart as text (a flex gap is not text). */}
          <Link
            to="/issues/$issueId"
            params={{ issueId: issue.id }}
            className={styles.title}
            title={markBidiControls(issue.title)}
          >
            <TelemetryText text={issue.title} />
          </Link>
          {fresh && <span className={styles.freshTag}>New</span>}
          {issue.status !== 'unresolved' && (
            <span className={styles.statusTag}>
              {issue.status === 'resolved' ? 'Resolved' : 'Archived'}
            </span>
          )}
        </span>
        <span className={styles.culprit}>
          <span className={styles.service}>
            <TelemetryText text={issue.service_name} />
          </span>
          <span className={styles.culpritText} title={markBidiControls(culpritOf(issue))}>
            <TelemetryText text={culpritOf(issue)} />
          </span>
        </span>
      </span>
      <span role="cell" className={`${cell} ${styles.num}`}>
        {issue.occurrence_count.toLocaleString('en-US')}
      </span>
      <span role="cell" className={`${cell} ${styles.trend}`}>
        {counts !== undefined && (
          <Sparkline counts={counts} bucketSeconds={bucketSeconds} label={sparklineLabel} />
        )}
      </span>
      <span role="cell" className={`${cell} ${styles.time}`}>
        <time
          dateTime={issue.last_seen_at}
          title={`Last seen ${formatUtcDateTime(issue.last_seen_at)}`}
        >
          {relativeTime(issue.last_seen_at, now)}
        </time>
        <span className={styles.firstSeen}>
          first{' '}
          <time
            dateTime={issue.first_seen_at}
            title={`First seen ${formatUtcDateTime(issue.first_seen_at)}`}
          >
            {relativeTime(issue.first_seen_at, now)}
          </time>
        </span>
      </span>
      <span
        role="cell"
        className={`${cell} ${styles.release} ${styles.wideOnly}`}
        title={markBidiControls(issue.release)}
      >
        <TelemetryText text={issue.release} />
      </span>
      <span role="cell" className={cell}>
        <span
          className={styles.priority}
          data-priority={issue.priority}
          title={
            issue.priority_source === 'manual'
              ? 'Set by a person (stays fixed)'
              : 'Derived from the effective severity'
          }
        >
          <span className={styles.priorityBars} aria-hidden="true">
            <span />
            <span />
            <span />
          </span>
          {priorityLabels[issue.priority]}
          {issue.priority_source === 'manual' && <span className={styles.manual}>manual</span>}
        </span>
      </span>
      <span role="cell" className={cell}>
        {assignee === null ? (
          <span className={styles.unassigned}>—</span>
        ) : assignee.type === 'team' ? (
          <span className={styles.assignee} title={`Team ${assignee.name}`}>
            <Avatar team>#</Avatar>
            <span className={styles.assigneeName}>{assignee.slug}</span>
          </span>
        ) : (
          <span className={styles.assignee} title={assignee.name ?? assignee.email}>
            <Avatar>{initialsOf(assignee.name, assignee.email)}</Avatar>
            <span className={styles.assigneeName}>{assignee.name ?? assignee.email}</span>
          </span>
        )}
      </span>
    </div>
  );
});
