import { TelemetryText } from '../../ui/telemetry-text';
import { markBidiControls } from '../../lib/bidi-controls';
import { Link } from '@tanstack/react-router';
import { memo, type MouseEvent } from 'react';
import type { TraceRow } from '../../api/queries/traces';
import { formatDuration } from '../../lib/format-duration';
import { formatUtcDateTime } from '../../lib/format-time';
import { AlertIcon } from '../../ui/icons';
import type { NextPageState } from '../../ui/list-end-row';
import { VirtualTable, virtualTableClasses } from '../../ui/virtual-table';
import { compactList, errorSpanLabel, firstOf, traceAge } from './trace-format';
import styles from './trace-list.module.css';

const ROW_HEIGHT = 44;
const PREFETCH_ROWS = 20;
const NOUN = { one: 'trace', many: 'traces' };
/** Service chips shown in a row on a wide screen (one on a narrow one); the rest are counted. */
const MAX_SERVICE_CHIPS = 2;

const cell = virtualTableClasses.cell;
const rowClass = `${virtualTableClasses.row} ${styles.row}`;

/** A loaded trace as the table keys it. */
export type TraceListRow = { id: string; trace: TraceRow };

/**
 * The traces as a virtualized table, newest first: root span, services, spans, errors,
 * duration, start, releases and environments. Scrolling near the end loads the next page
 * (the service's `next_cursor`). A row opens its trace (the root name is the link; a click
 * anywhere on the row does the same).
 */
export function TraceList({
  rows,
  longestMs,
  now,
  next,
  onOpen,
}: {
  rows: readonly TraceListRow[];
  /** The longest loaded duration, for the rows' duration bars. */
  longestMs: number;
  now: number;
  next: NextPageState;
  onOpen: (traceId: string) => void;
}) {
  return (
    <VirtualTable
      label="Traces"
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
            Root span
          </span>
          <span role="columnheader" className={cell}>
            Services
          </span>
          <span role="columnheader" className={`${cell} ${styles.num}`}>
            Spans
          </span>
          <span role="columnheader" className={cell}>
            Errors
          </span>
          <span role="columnheader" className={`${cell} ${styles.num}`}>
            Duration
          </span>
          <span role="columnheader" className={cell}>
            Started
          </span>
          <span role="columnheader" className={cell} title="Release · Environment">
            <span className={styles.wideOnly}>Release · Environment</span>
            <span className={styles.narrowOnly}>Release · Env.</span>
          </span>
        </>
      }
      renderRow={(row, index, top) => (
        <TraceRowView
          trace={row.trace}
          index={index}
          top={top}
          longestMs={longestMs}
          now={now}
          onOpen={onOpen}
        />
      )}
    />
  );
}

const TraceRowView = memo(function TraceRowView({
  trace,
  index,
  top,
  longestMs,
  now,
  onOpen,
}: {
  trace: TraceRow;
  index: number;
  top: number;
  longestMs: number;
  now: number;
  onOpen: (traceId: string) => void;
}) {
  const open = (e: MouseEvent) => {
    // The link handles its own clicks (modified clicks open a new tab as links do).
    if ((e.target as HTMLElement).closest('a')) return;
    onOpen(trace.trace_id);
  };
  const services = firstOf(trace.services, MAX_SERVICE_CHIPS);
  const errors = trace.error_span_count;
  const share = longestMs > 0 ? Math.max(trace.duration_ms / longestMs, 0.01) : 0;
  const started = formatUtcDateTime(trace.started_at, { ms: true });
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      className={rowClass}
      data-severity={errors > 0 ? 'error' : undefined}
      style={{ transform: `translateY(${top}px)` }}
      onClick={open}
    >
      <span role="cell" className={`${cell} ${styles.main}`}>
        <Link
          to="/traces/$traceId"
          params={{ traceId: trace.trace_id }}
          className={styles.name}
          title={markBidiControls(trace.root_span_name)}
        >
          <TelemetryText text={trace.root_span_name} />
        </Link>
        <span className={styles.sub}>
          <span className={styles.rootService}>
            <TelemetryText text={trace.root_service_name} />
          </span>
          {trace.root_operation !== null && (
            <span className={styles.operation} title={`Operation ${trace.root_operation}`}>
              {trace.root_operation}
            </span>
          )}
        </span>
      </span>
      <span
        role="cell"
        className={`${cell} ${styles.services}`}
        title={`${trace.service_count} ${trace.service_count === 1 ? 'service' : 'services'}: ${trace.services.join(', ')}`}
      >
        {services.shown.map((s, i) => (
          <span key={s} className={i === 0 ? styles.chip : `${styles.chip} ${styles.wideOnly}`}>
            {s}
          </span>
        ))}
        {services.more > 0 && (
          <span className={`${styles.more} ${styles.wideOnly}`}>+{services.more}</span>
        )}
        {trace.services.length > 1 && (
          <span className={`${styles.more} ${styles.narrowOnly}`}>
            +{trace.services.length - 1}
          </span>
        )}
      </span>
      <span role="cell" className={`${cell} ${styles.num}`}>
        {trace.span_count.toLocaleString('en-US')}
      </span>
      <span role="cell" className={cell}>
        {errors > 0 ? (
          <span className={styles.errors} title={errorSpanLabel(errors)}>
            <AlertIcon size={13} className={styles.errorIcon} />
            {errors.toLocaleString('en-US')} {errors === 1 ? 'error' : 'errors'}
          </span>
        ) : (
          <span className={styles.noErrors} title="No error spans">
            None
          </span>
        )}
      </span>
      <span role="cell" className={`${cell} ${styles.duration}`}>
        <span className={styles.durationText} title={`${trace.duration_ms} ms`}>
          {formatDuration(trace.duration_ms)}
        </span>
        <span className={styles.durationTrack} aria-hidden="true">
          <span className={styles.durationBar} style={{ width: `${share * 100}%` }} />
        </span>
      </span>
      <span role="cell" className={`${cell} ${styles.time}`}>
        <time dateTime={trace.started_at} title={started}>
          {traceAge(trace.started_at, now)}
        </time>
      </span>
      <span role="cell" className={`${cell} ${styles.context}`}>
        <span
          className={styles.release}
          title={markBidiControls(trace.releases.join(', ') || 'No release')}
        >
          <TelemetryText text={compactList(trace.releases)} />
        </span>
        <span
          className={styles.environment}
          title={markBidiControls(trace.environments.join(', ') || 'No environment')}
        >
          <TelemetryText text={compactList(trace.environments)} />
        </span>
      </span>
    </div>
  );
});
