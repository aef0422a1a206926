import { useVirtualizer } from '@tanstack/react-virtual';
import {
  Fragment,
  useCallback,
  useEffect,
  useRef,
  type CSSProperties,
  type ReactNode,
  type RefObject,
  type UIEventHandler,
} from 'react';
import { shouldFetchNextPage } from '../lib/should-fetch-next-page';
import { ListEndRow, type NextPageState, type RowNoun } from './list-end-row';
import styles from './virtual-table.module.css';

const HEADER_HEIGHT = 30;

/**
 * Class names for the rows and cells a caller renders: a row is absolutely placed
 * (`transform: translateY(top)`), laid out on the table's `--grid`, and takes a severity
 * accent from `data-severity`.
 */
export const virtualTableClasses = { row: styles.row, cell: styles.cell } as const;

/**
 * A virtualized table of fixed-height rows under a sticky header: only the rows in view are in
 * the DOM. Scrolling near the end loads the next page, and one extra row at the end says
 * whether more is loading, failed (with "Try again"), or everything is loaded. `renderRow`
 * should return a memoized row so rows already in view are skipped while scrolling.
 */
export function VirtualTable<Row extends { id: string }>({
  label,
  rows,
  noun,
  rowHeight,
  overscan,
  prefetchRows,
  next,
  header,
  renderRow,
  scrollToIndex = -1,
  scrollRef,
  onScroll,
  className,
  scrollerClassName,
  style,
  children,
}: {
  /** The table's accessible name. */
  label: string;
  rows: readonly Row[];
  noun: RowNoun;
  rowHeight: number;
  overscan: number;
  /** Rows left below the window when the next page is asked for. */
  prefetchRows: number;
  next: NextPageState;
  /** The column headers (`role="columnheader"`) of the header row. */
  header: ReactNode;
  renderRow: (row: Row, index: number, top: number) => ReactNode;
  /** A row to keep in view (-1 for none). */
  scrollToIndex?: number;
  scrollRef?: RefObject<HTMLDivElement | null>;
  onScroll?: UIEventHandler<HTMLDivElement>;
  /** Sets the columns (`--grid`) and the table's minimum width (`--table-min`). */
  className?: string;
  scrollerClassName?: string;
  style?: CSSProperties;
  /** Shown over the table, e.g. a banner. */
  children?: ReactNode;
}) {
  const ownScrollRef = useRef<HTMLDivElement>(null);
  const scroller = scrollRef ?? ownScrollRef;
  // Stable between renders: a new function makes the virtualizer re-measure every row,
  // which at 100,000 rows costs more than a frame on each scroll step.
  const getItemKey = useCallback((index: number) => rows[index]?.id ?? '__end', [rows]);
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is read during render by design
  const virtualizer = useVirtualizer({
    // One extra row at the end says whether more is loading, failed, or the range is exhausted.
    count: rows.length + 1,
    getScrollElement: () => scroller.current,
    estimateSize: () => rowHeight,
    overscan,
    scrollMargin: HEADER_HEIGHT,
    getItemKey,
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items[items.length - 1]?.index ?? 0;

  const { hasNextPage, isFetchingNextPage, error, fetchNextPage } = next;
  useEffect(() => {
    const status = { hasNextPage, isFetchingNextPage, error };
    if (shouldFetchNextPage(status, lastIndex, rows.length, prefetchRows)) fetchNextPage();
  }, [lastIndex, rows.length, prefetchRows, hasNextPage, isFetchingNextPage, error, fetchNextPage]);

  useEffect(() => {
    if (scrollToIndex >= 0) virtualizer.scrollToIndex(scrollToIndex, { align: 'auto' });
  }, [scrollToIndex, virtualizer]);

  const frameStyle = { '--row-height': `${rowHeight}px` } as CSSProperties;
  return (
    <div className={`${styles.frame} ${className ?? ''}`} style={frameStyle}>
      {children}
      <div
        ref={scroller}
        className={`${styles.scroller} ${scrollerClassName ?? ''}`}
        style={style}
        onScroll={onScroll}
        tabIndex={-1}
      >
        <div
          role="table"
          aria-label={label}
          aria-rowcount={rows.length + 1}
          className={styles.table}
        >
          <div role="rowgroup" className={styles.head}>
            <div role="row" aria-rowindex={1} className={styles.headRow}>
              {header}
            </div>
          </div>
          <div
            role="rowgroup"
            className={styles.body}
            style={{ height: virtualizer.getTotalSize() }}
          >
            {items.map((item) => {
              const top = item.start - HEADER_HEIGHT;
              const row = rows[item.index];
              if (!row) {
                return (
                  <div
                    key={item.key}
                    className={styles.endRow}
                    style={{ transform: `translateY(${top}px)` }}
                  >
                    <ListEndRow next={next} loaded={rows.length} noun={noun} />
                  </div>
                );
              }
              return <Fragment key={item.key}>{renderRow(row, item.index, top)}</Fragment>;
            })}
          </div>
        </div>
      </div>
    </div>
  );
}
