import { TelemetryText } from '../../ui/telemetry-text';
import { markBidiControls } from '../../lib/bidi-controls';
import { memo, type CSSProperties } from 'react';
import { AlertIcon, ChevronDownIcon } from '../../ui/icons';
import palette from './service-palette.module.css';
import { formatDuration } from '../../lib/format-duration';
import type { SpanNode } from './span-tree';
import styles from './waterfall.module.css';
import { barPlacement, type ZoomWindow } from './zoom-window';

/** Indentation stops growing here; deeper rows say their depth instead. */
const MAX_INDENT_LEVELS = 12;
const INDENT_PX = 10;

const percent = (v: number) => `${(v * 100).toFixed(4)}%`;

/**
 * One span of the tree: the name column (indent, expand toggle, service colour and name, span
 * name, error and orphan marks) and its duration bar on the shared time axis. Memoized: while
 * scrolling, rows already in view are not drawn again.
 */
export const SpanRow = memo(function SpanRow({
  node,
  rowIndex,
  top,
  colorSlot,
  traceMs,
  zoom,
  selected,
  focused,
  collapsed,
  dimmed,
  hiddenMatches,
  onPath,
  onRowClick,
  onToggle,
}: {
  node: SpanNode;
  rowIndex: number;
  top: number;
  colorSlot: number;
  traceMs: number;
  zoom: ZoomWindow;
  selected: boolean;
  focused: boolean;
  collapsed: boolean;
  dimmed: boolean;
  /** Filter matches this collapsed span hides: shown on the row, which expands on a click. */
  hiddenMatches: number;
  onPath: boolean;
  onRowClick: (rowIndex: number) => void;
  onToggle: (node: number) => void;
}) {
  const span = node.span;
  const bar = barPlacement(node.offset, span.duration_ms, traceMs, zoom);
  const duration = formatDuration(span.duration_ms);
  const indent = Math.min(node.depth, MAX_INDENT_LEVELS) * INDENT_PX + 6;
  // The duration goes after the bar when there is room, else before it, else inside its end.
  const end = bar.left + bar.width;
  const labelPlace = end < 0.82 ? 'after' : bar.left > 0.18 ? 'before' : 'inside';
  const style: CSSProperties = { transform: `translateY(${top}px)` };

  return (
    <div
      role="treeitem"
      aria-level={node.depth + 1}
      aria-expanded={node.childCount > 0 ? !collapsed : undefined}
      aria-selected={selected}
      tabIndex={focused ? 0 : -1}
      data-row={rowIndex}
      data-path={onPath || undefined}
      data-error={node.error || undefined}
      data-color={colorSlot}
      className={`${styles.row} ${dimmed ? styles.dimmed : ''}`}
      style={style}
      onClick={() => onRowClick(rowIndex)}
    >
      <div className={styles.nameCell} style={{ paddingLeft: indent }}>
        {node.childCount > 0 ? (
          <span
            className={styles.toggle}
            data-collapsed={collapsed}
            aria-hidden="true"
            onClick={(e) => {
              e.stopPropagation();
              onToggle(node.index);
            }}
          >
            <ChevronDownIcon size={14} />
          </span>
        ) : (
          <span className={styles.toggleSpacer} aria-hidden="true" />
        )}
        {node.depth > MAX_INDENT_LEVELS && (
          <span className={styles.depth} title={`Depth ${node.depth + 1}`}>
            L{node.depth + 1}
          </span>
        )}
        <span className={palette.swatch} aria-hidden="true" />
        <span className={styles.service}>
          <TelemetryText text={span.service_name} />
        </span>
        <span className={styles.name} title={markBidiControls(span.name)}>
          <TelemetryText text={span.name} />
        </span>
        {collapsed && node.childCount > 0 && (
          <span className={styles.childCount}>
            +{(node.end - node.index - 1).toLocaleString('en-US')}
          </span>
        )}
        {hiddenMatches > 0 && (
          <span
            className={`${styles.badge} ${styles.matchBadge}`}
            title="Expand this span to show them"
            onClick={(e) => {
              e.stopPropagation();
              onToggle(node.index);
            }}
          >
            {hiddenMatches === 1
              ? '1 match inside'
              : `${hiddenMatches.toLocaleString('en-US')} matches inside`}
          </span>
        )}
        {node.error && (
          <span className={`${styles.badge} ${styles.errorBadge}`}>
            <AlertIcon size={11} />
            error
          </span>
        )}
        {node.orphan && (
          <span
            className={`${styles.badge} ${styles.orphanBadge}`}
            title={
              span.parent_span_id
                ? `Parent span ${span.parent_span_id} was not received`
                : 'This span is cut from a parent cycle'
            }
          >
            parent not received
          </span>
        )}
        {onPath && <span className="visually-hidden">, on the slowest path</span>}
      </div>
      <div className={styles.barCell}>
        {bar.outside === null ? (
          <>
            <span
              className={styles.bar}
              data-error={node.error || undefined}
              style={{ left: percent(bar.left), width: percent(bar.width) }}
            />
            <span
              className={`${styles.barLabel} ${labelPlace === 'inside' ? styles.barLabelInside : ''}`}
              style={
                labelPlace === 'after'
                  ? { left: `calc(${percent(end)} + 6px)` }
                  : labelPlace === 'before'
                    ? { right: `calc(${percent(1 - bar.left)} + 6px)` }
                    : { right: `calc(${percent(1 - end)} + 3px)` }
              }
            >
              {duration}
            </span>
          </>
        ) : (
          <span
            className={styles.offscreen}
            style={bar.outside === 'before' ? { left: 0 } : { right: 0 }}
          >
            {bar.outside === 'before' ? `◂ ${duration}` : `${duration} ▸`}
          </span>
        )}
      </div>
    </div>
  );
});

/** Where the filter hides a run of spans: one row saying how many. */
export const HiddenSpansRow = memo(function HiddenSpansRow({
  count,
  depth,
  rowIndex,
  top,
  focused,
}: {
  count: number;
  depth: number;
  rowIndex: number;
  top: number;
  focused: boolean;
}) {
  const indent = Math.min(depth, MAX_INDENT_LEVELS) * INDENT_PX + 6 + 22;
  const label = count === 1 ? '1 span hidden' : `${count.toLocaleString('en-US')} spans hidden`;
  return (
    <div
      role="treeitem"
      aria-level={depth + 1}
      aria-selected={false}
      tabIndex={focused ? 0 : -1}
      data-row={rowIndex}
      className={`${styles.row} ${styles.hiddenRow}`}
      style={{ transform: `translateY(${top}px)` }}
    >
      <div className={styles.nameCell} style={{ paddingLeft: indent }}>
        <span className={styles.hiddenLabel}>{label} by the filter</span>
      </div>
      <div className={styles.barCell} />
    </div>
  );
});
