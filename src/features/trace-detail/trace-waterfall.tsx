import { useCallback, useMemo, useRef, useState } from 'react';
import { Button } from '../../ui/button';
import { FilterInput } from '../../ui/filter-input';
import { FilterSelect } from '../../ui/filter-select';
import { adjacentError, errorPosition, reachableErrors } from './error-navigation';
import palette from './service-palette.module.css';
import { slowestPathNodes } from './slowest-path';
import { SpanDetailPanel } from './span-detail-panel';
import { expandToMatches, filterSpans } from './span-filter';
import { parentNodes, revealNode, type SpanTree } from './span-tree';
import { SpanTreeView, type ScrollRequest } from './span-tree-view';
import { gridGradient } from './time-axis';
import { TimeAxisTicks, ticksFor, useElementWidth } from './time-axis-ticks';
import { TraceMinimap } from './trace-minimap';
import type { TraceOverview } from './trace-overview';
import type { TracePageSearch } from './trace-search';
import type { TraceSummary } from '../../api/queries/traces';
import type { TreeKeyAction } from './tree-keys';
import styles from './trace-detail.module.css';
import { useSetTraceSearch } from './use-trace-search';
import { matchesUnderCollapsed, rowOfNode, visibleRows } from './visible-rows';
import waterfall from './waterfall.module.css';
import { FULL_WINDOW, isFullWindow, type ZoomWindow } from './zoom-window';
import { isolateText } from '../../lib/isolate-text';

const NO_NODES: ReadonlySet<number> = new Set();

/**
 * The waterfall of one trace: the filter and navigation toolbar, the minimap with the zoom
 * window, the time axis, the span tree, and the selected span's details. The filter, the
 * selected span and the slowest-path highlight are in the URL; collapse, focus and zoom are
 * the view's own.
 */
export function TraceWaterfall({
  traceId,
  tree,
  overview,
  colors,
  summary,
  search,
}: {
  traceId: string;
  tree: SpanTree;
  overview: TraceOverview;
  colors: ReadonlyMap<string, number>;
  summary: TraceSummary | null;
  search: TracePageSearch;
}) {
  const setSearch = useSetTraceSearch();
  const [collapsed, setCollapsed] = useState<ReadonlySet<number>>(NO_NODES);
  const [zoom, setZoom] = useState<ZoomWindow>(FULL_WINDOW);
  const selectedNode = search.span === undefined ? null : (tree.bySpanId.get(search.span) ?? null);
  // Everything starts expanded; a span selected by a link is scrolled into view once.
  const [initialSelection] = useState(selectedNode);
  const shownCollapsed = collapsed;

  const filter = useMemo(
    () => filterSpans(tree, { text: search.q, service: search.service }),
    [tree, search.q, search.service],
  );
  // A new filter opens the spans that would hide its matches; a span collapsed afterwards
  // keeps its collapse and says how many matches it holds.
  const [filterShown, setFilterShown] = useState(filter);
  if (filterShown !== filter) {
    setFilterShown(filter);
    const opened = expandToMatches(collapsed, filter);
    if (opened !== collapsed) setCollapsed(opened);
  }
  const rows = useMemo(
    () => visibleRows(tree, shownCollapsed, filter),
    [tree, shownCollapsed, filter],
  );
  const errors = useMemo(() => reachableErrors(tree, filter), [tree, filter]);
  const highlightPath = search.slowest === true;
  const pathNodes = useMemo(
    () => (highlightPath ? slowestPathNodes(tree, summary?.slowest_path ?? null) : NO_NODES),
    [highlightPath, tree, summary],
  );

  const [focusRow, setFocusRow] = useState(() =>
    initialSelection === null ? 0 : Math.max(0, rowOfNode(rows, initialSelection)),
  );
  const shownFocus = Math.min(focusRow, Math.max(0, rows.length - 1));
  const [scrollRequest, setScrollRequest] = useState<ScrollRequest | null>(() =>
    initialSelection === null ? null : { row: rowOfNode(rows, initialSelection), seq: 0 },
  );
  const scrollRef = useRef<HTMLDivElement>(null);
  const [axisRef, axisWidth] = useElementWidth<HTMLDivElement>();
  const ticks = useMemo(
    () => ticksFor(tree.durationMs, zoom, axisWidth),
    [tree.durationMs, zoom, axisWidth],
  );
  const gridImage = useMemo(() => gridGradient(ticks, 'var(--grid-line)'), [ticks]);

  const select = useCallback(
    (node: number | null) =>
      setSearch(
        { span: node === null ? undefined : tree.nodes[node]?.span.span_id },
        { replace: true },
      ),
    [setSearch, tree],
  );

  const onAction = useCallback(
    (action: TreeKeyAction) => {
      if (action.kind === 'select') select(action.node);
      else if (action.kind === 'expand' || action.kind === 'collapse') {
        setCollapsed((prev) => {
          const next = new Set(prev);
          if (action.kind === 'expand') next.delete(action.node);
          else next.add(action.node);
          return next;
        });
      }
    },
    [select],
  );

  /** Selects a span, expanding its ancestors, and brings it into view. */
  const reveal = (node: number) => {
    const nextCollapsed = revealNode(tree, shownCollapsed, node);
    const nextRows =
      nextCollapsed === shownCollapsed ? rows : visibleRows(tree, nextCollapsed, filter);
    if (nextCollapsed !== shownCollapsed) setCollapsed(nextCollapsed);
    const row = rowOfNode(nextRows, node);
    setFocusRow(Math.max(0, row));
    setScrollRequest((prev) => ({ row, seq: (prev?.seq ?? 0) + 1 }));
    select(node);
  };
  const stepError = (step: 1 | -1) => {
    const next = adjacentError(errors, selectedNode, step);
    if (next >= 0) reveal(next);
  };

  const position = errorPosition(errors, selectedNode);
  const filtered = filter !== null;
  const underCollapsed = matchesUnderCollapsed(rows);
  const label = `Spans of trace ${traceId}`;
  return (
    <div className={`${styles.workArea} ${palette.palette}`}>
      <div className={styles.toolbar} role="toolbar" aria-label="Span tree tools">
        <FilterInput
          label="Filter spans"
          placeholder="Name, service, operation or span id"
          value={search.q}
          onCommit={(q) => setSearch({ q }, { replace: true })}
          icon
          wide
        />
        <label className="visually-hidden" htmlFor="trace-service-filter">
          Filter by service
        </label>
        <FilterSelect
          id="trace-service-filter"
          empty={search.service === undefined}
          value={search.service ?? ''}
          onChange={(e) =>
            setSearch(
              { service: e.target.value === '' ? undefined : e.target.value },
              { replace: true },
            )
          }
        >
          <option value="">All services</option>
          {overview.services.map((s) => (
            <option key={s.service_name} value={s.service_name}>
              {isolateText(s.service_name)} ({s.span_count.toLocaleString('en-US')})
            </option>
          ))}
          {search.service !== undefined && !colors.has(search.service) && (
            <option value={search.service}>{isolateText(search.service)} (0)</option>
          )}
        </FilterSelect>
        {filtered && (
          <>
            <span className={styles.count} role="status">
              {filter.matchCount.toLocaleString('en-US')} of{' '}
              {tree.nodes.length.toLocaleString('en-US')} spans match
              {underCollapsed > 0 &&
                ` · ${underCollapsed.toLocaleString('en-US')} inside collapsed spans`}
            </span>
            {underCollapsed > 0 && (
              <Button
                size="sm"
                variant="ghost"
                onClick={() => setCollapsed(expandToMatches(collapsed, filter))}
              >
                Show all matches
              </Button>
            )}
            <Button
              size="sm"
              variant="ghost"
              onClick={() => setSearch({ q: undefined, service: undefined }, { replace: true })}
            >
              Clear filter
            </Button>
          </>
        )}
        <span className={styles.toolbarGroup}>
          <Button size="sm" onClick={() => setCollapsed(parentNodes(tree))}>
            Collapse all
          </Button>
          <Button size="sm" onClick={() => setCollapsed(new Set())}>
            Expand all
          </Button>
        </span>
        <span className={styles.toolbarGroup}>
          <Button
            size="sm"
            onClick={() => stepError(-1)}
            disabled={errors.length === 0}
            aria-label="Previous error"
          >
            ↑ Previous error
          </Button>
          <Button
            size="sm"
            onClick={() => stepError(1)}
            disabled={errors.length === 0}
            aria-label="Next error"
          >
            ↓ Next error
          </Button>
          <span className={styles.count} aria-live="polite">
            {errors.length === 0
              ? filtered && tree.errors.length > 0
                ? 'No errors match the filter'
                : 'No error spans'
              : position !== null
                ? `Error ${position} of ${errors.length}`
                : `${errors.length.toLocaleString('en-US')} error ${errors.length === 1 ? 'span' : 'spans'}`}
          </span>
        </span>
      </div>

      <div className={styles.body}>
        <section className={waterfall.frame} aria-label="Waterfall">
          <div className={waterfall.top}>
            <TraceMinimap tree={tree} colors={colors} zoom={zoom} onZoom={setZoom} />
            <div className={waterfall.topGrid}>
              <div className={waterfall.topLeft}>
                <span className={waterfall.columnTitle}>Service · span</span>
                <span className={waterfall.columnNote}>
                  {rows.length.toLocaleString('en-US')} {rows.length === 1 ? 'row' : 'rows'} · depth{' '}
                  {tree.maxDepth + 1}
                </span>
                {isFullWindow(zoom) ? (
                  <span className={waterfall.columnNote}>whole trace</span>
                ) : (
                  <Button
                    size="sm"
                    variant="ghost"
                    className={waterfall.resetZoom}
                    onClick={() => setZoom(FULL_WINDOW)}
                  >
                    Reset zoom ({Math.round((zoom.to - zoom.from) * 1000) / 10}%)
                  </Button>
                )}
              </div>
              <TimeAxisTicks ticks={ticks} axisRef={axisRef} />
            </div>
          </div>
          <SpanTreeView
            tree={tree}
            rows={rows}
            collapsed={shownCollapsed}
            colors={colors}
            zoom={zoom}
            selectedNode={selectedNode}
            focusRow={shownFocus}
            pathNodes={pathNodes}
            scrollRequest={scrollRequest}
            scrollRef={scrollRef}
            gridImage={gridImage}
            label={label}
            onFocusRow={setFocusRow}
            onAction={onAction}
          />
        </section>
        {search.span !== undefined && (
          <SpanDetailPanel
            key={search.span}
            traceId={traceId}
            spanId={search.span}
            node={selectedNode === null ? null : (tree.nodes[selectedNode] ?? null)}
            tree={tree}
            colors={colors}
            summary={summary}
            onOnPath={pathNodes.has(selectedNode ?? -1)}
            onClose={() => select(null)}
            onReveal={reveal}
          />
        )}
      </div>
    </div>
  );
}
