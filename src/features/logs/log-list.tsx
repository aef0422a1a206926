import { TelemetryText } from '../../ui/telemetry-text';
import { markBidiControls } from '../../lib/bidi-controls';
import { useRouterState } from '@tanstack/react-router';
import { memo, useMemo, useRef, type CSSProperties, type MouseEvent } from 'react';
import type { Log } from '../../api/queries/logs';
import { formatUtcDateTime } from '../../lib/format-time';
import { displayPointer } from '../../lib/json-pointer';
import { AttributePath } from '../../ui/attribute-path';
import { Button } from '../../ui/button';
import { CloseIcon } from '../../ui/icons';
import type { NextPageState } from '../../ui/list-end-row';
import { VirtualTable, virtualTableClasses } from '../../ui/virtual-table';
import { attributeCell, formatLogTime } from './log-format';
import styles from './log-list.module.css';
import { SeverityBadge } from '../../ui/severity-badge';

const ROW_HEIGHT = 28;
/** Scrolled further than this from the top, the live tail pauses. */
const PAUSE_AFTER_PX = ROW_HEIGHT * 2;
/** Rows left below the window when the next page is asked for. */
const PREFETCH_ROWS = 30;

const NOUN = { one: 'log', many: 'logs' };
const cell = virtualTableClasses.cell;
const rowClass = `${virtualTableClasses.row} ${styles.row}`;

/**
 * The logs as a virtualized table: only the rows in view are in the DOM. Scrolling near the
 * end loads the next page (the service's `next_cursor`); scrolling away from the top pauses
 * the live tail, and the banner brings it back.
 */
export function LogList({
  rows,
  columns,
  selectedId,
  onSelect,
  onRemoveColumn,
  next,
  paused,
  pending,
  onScrollAway,
  onBackToTop,
}: {
  rows: readonly Log[];
  columns: readonly string[];
  selectedId: string | undefined;
  onSelect: (logId: string) => void;
  onRemoveColumn: (path: string) => void;
  next: NextPageState;
  paused: boolean;
  /** Live logs held back while paused. */
  pending: number;
  onScrollAway: () => void;
  onBackToTop: () => void;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);

  const gridTemplate = `var(--col-severity) var(--col-time) var(--col-service) minmax(280px, 1fr)${columns.map(() => ' var(--col-attr)').join('')}`;
  const style = {
    '--grid': gridTemplate,
    '--table-min': `calc(var(--col-severity) + var(--col-time) + var(--col-service) + 280px + ${columns.length} * var(--col-attr))`,
  } as CSSProperties;

  // Rows render on every scroll frame: a link per row is a plain href from the current search
  // (building a router location per row per frame costs more than the frame budget).
  const searchStr = useRouterState({ select: (st) => st.location.searchStr });
  const hrefOf = useMemo(() => {
    const params = new URLSearchParams(searchStr);
    return (id: string) => {
      params.set('log', id);
      return `?${params.toString()}`;
    };
  }, [searchStr]);

  const jumpToTop = () => {
    scrollRef.current?.scrollTo({ top: 0 });
    onBackToTop();
  };

  return (
    <VirtualTable
      label="Logs"
      rows={rows}
      noun={NOUN}
      rowHeight={ROW_HEIGHT}
      overscan={12}
      prefetchRows={PREFETCH_ROWS}
      next={next}
      scrollRef={scrollRef}
      className={styles.table}
      scrollerClassName={styles.scroller}
      style={style}
      onScroll={(e) => {
        const top = e.currentTarget.scrollTop;
        if (!paused && top > PAUSE_AFTER_PX) onScrollAway();
        else if (paused && top <= 2) onBackToTop();
      }}
      header={
        <>
          <span role="columnheader" className={cell}>
            Severity
          </span>
          <span role="columnheader" className={cell}>
            Time (UTC)
          </span>
          <span role="columnheader" className={`${cell} ${styles.serviceColumn}`}>
            Service
          </span>
          <span role="columnheader" className={cell}>
            Message
          </span>
          {columns.map((path) => (
            <span key={path} role="columnheader" className={`${cell} ${styles.attrHead}`}>
              <code title={displayPointer(path)}>
                <AttributePath pointer={path} />
              </code>
              <button
                type="button"
                className={styles.removeColumn}
                aria-label={`Remove column ${displayPointer(path)}`}
                onClick={() => onRemoveColumn(path)}
              >
                <CloseIcon size={12} />
              </button>
            </span>
          ))}
        </>
      }
      renderRow={(log, index, top) => (
        <LogRow
          log={log}
          index={index}
          top={top}
          selected={log.id === selectedId}
          columns={columns}
          hrefOf={hrefOf}
          onSelect={onSelect}
        />
      )}
    >
      {paused && pending > 0 && (
        <div className={styles.bannerSlot}>
          <Button size="sm" variant="primary" className={styles.banner} onClick={jumpToTop}>
            {pending === 1 ? '1 new log' : `${pending.toLocaleString('en-US')} new logs`} — jump to
            top
          </Button>
        </div>
      )}
    </VirtualTable>
  );
}

/**
 * One row, memoized: while scrolling, rows already in view keep their props and are skipped;
 * only rows entering the window render.
 */
const LogRow = memo(function LogRow({
  log,
  index,
  top,
  selected,
  columns,
  hrefOf,
  onSelect,
}: {
  log: Log;
  index: number;
  top: number;
  selected: boolean;
  columns: readonly string[];
  hrefOf: (logId: string) => string;
  onSelect: (logId: string) => void;
}) {
  const select = (e: MouseEvent) => {
    // Modified clicks on the link open a new tab as links do; other controls handle their own.
    const target = e.target as HTMLElement;
    if (target.closest('a') && (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0)) return;
    if (target.closest('button')) return;
    e.preventDefault();
    onSelect(log.id);
  };
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      className={rowClass}
      data-selected={selected || undefined}
      data-severity={log.triage.effective_severity}
      style={{ transform: `translateY(${top}px)` }}
      onClick={select}
    >
      <span role="cell" className={cell}>
        <SeverityBadge severity={log.triage.effective_severity} captured={log.severity} size="sm" />
      </span>
      <span role="cell" className={`${cell} ${styles.time}`}>
        <time dateTime={log.occurred_at} title={formatUtcDateTime(log.occurred_at, { ms: true })}>
          {formatLogTime(log.occurred_at)}
        </time>
      </span>
      <span
        role="cell"
        className={`${cell} ${styles.service} ${styles.serviceColumn}`}
        title={markBidiControls(log.service_name)}
      >
        <TelemetryText text={log.service_name} />
      </span>
      <span role="cell" className={`${cell} ${styles.message}`}>
        <a
          href={hrefOf(log.id)}
          className={styles.messageLink}
          aria-current={selected ? 'true' : undefined}
          title={log.message.length > 120 ? undefined : markBidiControls(log.message)}
        >
          {log.message === '' ? (
            <em className={styles.emptyMessage}>(empty message)</em>
          ) : (
            <TelemetryText text={log.message} />
          )}
        </a>
      </span>
      {columns.map((path) => {
        const value = attributeCell(log.attributes, path);
        return (
          <span
            key={path}
            role="cell"
            className={`${cell} ${styles.attr}`}
            title={markBidiControls(value ?? `${displayPointer(path)} is not set`)}
          >
            {value !== null ? (
              <TelemetryText text={value} />
            ) : (
              <span className={styles.absent}>—</span>
            )}
          </span>
        );
      })}
    </div>
  );
});
