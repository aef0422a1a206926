import { Link } from '@tanstack/react-router';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useEffect, useRef } from 'react';
import type { Issue } from '../../api/queries/issues';
import { formatUtcDateTime } from '../../lib/format-time';
import { SeverityBadge } from '../../ui/severity-badge';
import { Sparkline } from '../../ui/sparkline';
import { culpritOf, initialsOf, relativeTime } from './board';
import styles from './issue-list.module.css';

const ROW_HEIGHT = 52;
const HEADER_HEIGHT = 30;
const PREFETCH_ROWS = 20;

export type NextPageState = {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  error: unknown;
  fetchNextPage: () => void;
};

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
  const scrollRef = useRef<HTMLDivElement>(null);
  const getItemKey = useCallback((index: number) => rows[index]?.id ?? '__end', [rows]);
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is read during render by design
  const virtualizer = useVirtualizer({
    count: rows.length + 1,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    scrollMargin: HEADER_HEIGHT,
    getItemKey,
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items[items.length - 1]?.index ?? 0;
  const { hasNextPage, isFetchingNextPage, error, fetchNextPage } = next;
  useEffect(() => {
    if (!hasNextPage || isFetchingNextPage || error) return;
    if (lastIndex >= rows.length - PREFETCH_ROWS) fetchNextPage();
  }, [lastIndex, rows.length, hasNextPage, isFetchingNextPage, error, fetchNextPage]);

  useEffect(() => {
    if (focusedIndex >= 0) virtualizer.scrollToIndex(focusedIndex, { align: 'auto' });
  }, [focusedIndex, virtualizer]);

  return (
    <div className={styles.frame}>
      <div ref={scrollRef} className={styles.scroller} tabIndex={-1}>
        <div role="table" aria-label="Issues" aria-rowcount={rows.length + 1}>
          <div role="rowgroup" className={styles.head}>
            <div role="row" aria-rowindex={1} className={styles.headRow}>
              <span role="columnheader" className={styles.checkCell}>
                <span className={styles.visuallyHidden}>Selected</span>
              </span>
              <span role="columnheader" className={styles.cell}>
                Issue
              </span>
              <span role="columnheader" className={`${styles.cell} ${styles.num}`}>
                Events
              </span>
              <span role="columnheader" className={styles.cell}>
                Trend
              </span>
              <span role="columnheader" className={styles.cell}>
                Last seen
              </span>
              <span role="columnheader" className={styles.cell}>
                First seen
              </span>
              <span role="columnheader" className={styles.cell}>
                Release
              </span>
              <span role="columnheader" className={styles.cell}>
                Priority
              </span>
              <span role="columnheader" className={styles.cell}>
                Assignee
              </span>
            </div>
          </div>
          <div
            role="rowgroup"
            className={styles.body}
            style={{ height: virtualizer.getTotalSize() }}
          >
            {items.map((item) => {
              const top = item.start - HEADER_HEIGHT;
              const issue = rows[item.index];
              if (!issue) {
                return (
                  <div
                    key={item.key}
                    className={styles.endRow}
                    style={{ transform: `translateY(${top}px)` }}
                  >
                    <EndOfList next={next} loaded={rows.length} />
                  </div>
                );
              }
              return (
                <IssueRow
                  key={item.key}
                  issue={issue}
                  index={item.index}
                  top={top}
                  focused={item.index === focusedIndex}
                  selected={selected.has(issue.id)}
                  fresh={fresh.has(issue.id)}
                  now={now}
                  counts={histograms.get(issue.id)}
                  bucketSeconds={bucketSeconds}
                  sparklineLabel={sparklineLabel}
                  onFocusRow={onFocusRow}
                  onToggle={onToggle}
                />
              );
            })}
          </div>
        </div>
      </div>
    </div>
  );
}

const priorityLabels: Record<Issue['priority'], string> = {
  high: 'High',
  medium: 'Medium',
  low: 'Low',
};

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
      className={styles.row}
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
      <span role="cell" className={`${styles.cell} ${styles.main}`}>
        <span className={styles.titleLine}>
          <SeverityBadge severity={severity} captured={issue.severity} size="sm" />
          <Link
            to="/issues/$issueId"
            params={{ issueId: issue.id }}
            className={styles.title}
            title={issue.title}
          >
            {issue.title}
          </Link>
          {fresh && <span className={styles.freshTag}>New</span>}
          {issue.status !== 'unresolved' && (
            <span className={styles.statusTag}>
              {issue.status === 'resolved' ? 'Resolved' : 'Archived'}
            </span>
          )}
        </span>
        <span className={styles.culprit}>
          <span className={styles.service}>{issue.service_name}</span>
          <span className={styles.culpritText} title={culpritOf(issue)}>
            {culpritOf(issue)}
          </span>
        </span>
      </span>
      <span role="cell" className={`${styles.cell} ${styles.num}`}>
        {issue.occurrence_count.toLocaleString('en-US')}
      </span>
      <span role="cell" className={`${styles.cell} ${styles.trend}`}>
        {counts !== undefined && (
          <Sparkline counts={counts} bucketSeconds={bucketSeconds} label={sparklineLabel} />
        )}
      </span>
      <span role="cell" className={`${styles.cell} ${styles.time}`}>
        <time dateTime={issue.last_seen_at} title={formatUtcDateTime(issue.last_seen_at)}>
          {relativeTime(issue.last_seen_at, now)}
        </time>
      </span>
      <span role="cell" className={`${styles.cell} ${styles.time}`}>
        <time dateTime={issue.first_seen_at} title={formatUtcDateTime(issue.first_seen_at)}>
          {relativeTime(issue.first_seen_at, now)}
        </time>
      </span>
      <span role="cell" className={`${styles.cell} ${styles.release}`} title={issue.release}>
        {issue.release}
      </span>
      <span role="cell" className={styles.cell}>
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
      <span role="cell" className={styles.cell}>
        {assignee === null ? (
          <span className={styles.unassigned}>—</span>
        ) : assignee.type === 'team' ? (
          <span className={styles.assignee} title={`Team ${assignee.name}`}>
            <span className={`${styles.avatar} ${styles.teamAvatar}`} aria-hidden="true">
              #
            </span>
            <span className={styles.assigneeName}>{assignee.slug}</span>
          </span>
        ) : (
          <span className={styles.assignee} title={assignee.name ?? assignee.email}>
            <span className={styles.avatar} aria-hidden="true">
              {initialsOf(assignee.name, assignee.email)}
            </span>
            <span className={styles.assigneeName}>{assignee.name ?? assignee.email}</span>
          </span>
        )}
      </span>
    </div>
  );
});

function EndOfList({ next, loaded }: { next: NextPageState; loaded: number }) {
  if (next.error) {
    return (
      <span className={styles.endText} role="alert">
        The next page could not be loaded.{' '}
        <button type="button" className={styles.inlineAction} onClick={next.fetchNextPage}>
          Try again
        </button>
      </span>
    );
  }
  if (next.isFetchingNextPage || next.hasNextPage) {
    return <span className={styles.endText}>Loading more issues…</span>;
  }
  return (
    <span className={styles.endText}>
      {loaded === 1 ? 'The only issue' : `All ${loaded.toLocaleString('en-US')} issues`} in this
      range and scope.
    </span>
  );
}
