import { useVirtualizer } from '@tanstack/react-virtual';
import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  type CSSProperties,
  type KeyboardEvent,
  type RefObject,
} from 'react';
import { HiddenSpansRow, SpanRow } from './span-row';
import type { SpanTree } from './span-tree';
import { treeKeyAction, type TreeKeyAction } from './tree-keys';
import type { SpanRow as SpanRowModel } from './visible-rows';
import styles from './waterfall.module.css';
import type { ZoomWindow } from './zoom-window';

export const ROW_HEIGHT = 24;

/**
 * Scrolls a row of the fixed-height list into view: to the centre, or (`nearest`) by as
 * little as needed. Direct and exact, whatever the virtualizer is busy with.
 */
function scrollRowIntoView(el: HTMLElement | null, row: number, align: 'center' | 'nearest') {
  if (!el || row < 0) return;
  const top = row * ROW_HEIGHT;
  if (align === 'center') {
    el.scrollTop = Math.max(0, top - (el.clientHeight - ROW_HEIGHT) / 2);
  } else if (top < el.scrollTop) {
    el.scrollTop = top;
  } else if (top + ROW_HEIGHT > el.scrollTop + el.clientHeight) {
    el.scrollTop = top + ROW_HEIGHT - el.clientHeight;
  }
}

/** A request to bring a row into view (a new `seq` repeats the same row). */
export type ScrollRequest = { row: number; seq: number };

/**
 * The span tree as an ARIA tree with roving focus, virtualized: only the rows in view are in
 * the DOM. Keys follow the ARIA tree pattern (see `treeKeyAction`); the component only draws
 * and reports, the page owns collapse, focus and selection.
 */
export function SpanTreeView({
  tree,
  rows,
  collapsed,
  colors,
  zoom,
  selectedNode,
  focusRow,
  pathNodes,
  scrollRequest,
  scrollRef,
  gridImage,
  label,
  onFocusRow,
  onAction,
}: {
  tree: SpanTree;
  rows: readonly SpanRowModel[];
  collapsed: ReadonlySet<number>;
  colors: ReadonlyMap<string, number>;
  zoom: ZoomWindow;
  selectedNode: number | null;
  focusRow: number;
  /** Nodes to mark as the slowest path (empty when the highlight is off). */
  pathNodes: ReadonlySet<number>;
  scrollRequest: ScrollRequest | null;
  scrollRef: RefObject<HTMLDivElement | null>;
  /** The time grid's lines (a CSS image) behind the bars. */
  gridImage: string;
  label: string;
  onFocusRow: (row: number) => void;
  onAction: (action: TreeKeyAction) => void;
}) {
  const getItemKey = useCallback((index: number) => rows[index]?.key ?? index, [rows]);
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is read during render by design
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    getItemKey,
    // Rows render in React's own time, not synchronously inside each scroll event: the
    // overscan covers the frame in between.
    useFlushSync: false,
  });
  const treeRef = useRef<HTMLDivElement>(null);
  // The DOM focus follows the roving focus only while it is in the tree (keys), so a button
  // outside ("Next error") keeps its focus.
  const keyboardRef = useRef(false);

  useLayoutEffect(() => {
    if (scrollRequest !== null) scrollRowIntoView(scrollRef.current, scrollRequest.row, 'center');
  }, [scrollRequest, scrollRef]);

  const focusRowRef = useRef(focusRow);
  const focusRowElement = useCallback(() => {
    if (!keyboardRef.current) return;
    const el = treeRef.current?.querySelector<HTMLElement>(`[data-row="${focusRowRef.current}"]`);
    if (el && document.activeElement !== el) el.focus({ preventScroll: true });
  }, []);
  useEffect(() => {
    focusRowRef.current = focusRow;
    // After the virtualizer has drawn the row (it may have just scrolled there).
    const frame = requestAnimationFrame(focusRowElement);
    return () => cancelAnimationFrame(frame);
  }, [focusRow, rows, focusRowElement]);

  const pageRows = Math.max(
    1,
    Math.floor((scrollRef.current?.clientHeight ?? 480) / ROW_HEIGHT) - 1,
  );
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const action = treeKeyAction(e.key, rows, tree, collapsed, focusRow, pageRows);
    if (action === null) return;
    e.preventDefault();
    keyboardRef.current = true;
    if (action.kind === 'focus') {
      onFocusRow(action.row);
      scrollRowIntoView(scrollRef.current, action.row, 'nearest');
    } else {
      onAction(action);
    }
  };

  const onRowClick = useCallback(
    (row: number) => {
      keyboardRef.current = true;
      onFocusRow(row);
      const r = rows[row];
      if (r?.kind === 'span') onAction({ kind: 'select', node: r.node });
    },
    [rows, onFocusRow, onAction],
  );
  const onToggle = useCallback(
    (node: number) =>
      onAction(collapsed.has(node) ? { kind: 'expand', node } : { kind: 'collapse', node }),
    [collapsed, onAction],
  );

  const traceMs = tree.durationMs;
  const items = virtualizer.getVirtualItems();
  // When the focused row is scrolled out of the DOM, the tree itself takes Tab and hands the
  // focus back to that row.
  const focusDrawn = items.some((item) => item.index === focusRow);
  return (
    <div ref={scrollRef} className={styles.scroller} tabIndex={-1}>
      <div
        ref={treeRef}
        role="tree"
        aria-label={label}
        className={styles.tree}
        style={{ height: virtualizer.getTotalSize(), '--grid-image': gridImage } as CSSProperties}
        tabIndex={focusDrawn || rows.length === 0 ? undefined : 0}
        onKeyDown={onKeyDown}
        onFocus={(e) => {
          keyboardRef.current = true;
          if (e.target === e.currentTarget && rows.length > 0) {
            scrollRowIntoView(scrollRef.current, focusRow, 'nearest');
            requestAnimationFrame(() => focusRowElement());
          }
        }}
        onBlur={(e) => {
          if (!e.currentTarget.contains(e.relatedTarget as Node | null))
            keyboardRef.current = false;
        }}
      >
        {items.map((item) => {
          const row = rows[item.index];
          if (!row) return null;
          const focused = item.index === focusRow;
          if (row.kind === 'hidden') {
            return (
              <HiddenSpansRow
                key={row.key}
                count={row.count}
                depth={row.depth}
                rowIndex={item.index}
                top={item.start}
                focused={focused}
              />
            );
          }
          const node = tree.nodes[row.node];
          if (!node) return null;
          return (
            <SpanRow
              key={row.key}
              node={node}
              rowIndex={item.index}
              top={item.start}
              colorSlot={colors.get(node.span.service_name) ?? 0}
              traceMs={traceMs}
              zoom={zoom}
              selected={row.node === selectedNode}
              focused={focused}
              collapsed={collapsed.has(row.node)}
              dimmed={row.dimmed}
              hiddenMatches={row.hiddenMatches}
              onPath={pathNodes.has(row.node)}
              onRowClick={onRowClick}
              onToggle={onToggle}
            />
          );
        })}
      </div>
    </div>
  );
}
