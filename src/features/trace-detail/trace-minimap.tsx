import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { formatDuration } from '../../lib/format-duration';
import type { SpanNode, SpanTree } from './span-tree';
import styles from './waterfall.module.css';
import {
  isFullWindow,
  panWindow,
  resizeWindow,
  windowBetween,
  type ZoomWindow,
} from './zoom-window';

type Drag =
  | { kind: 'pan'; startX: number; start: ZoomWindow }
  | { kind: 'resize'; edge: 'from' | 'to' }
  | { kind: 'select'; anchor: number; startX: number; moved: boolean };

/**
 * The whole trace in small: every span as a thin bar (rows top to bottom in tree order, time
 * left to right), drawn on a canvas, with the zoom window over it. Drag across the map to
 * choose a window, drag a zoomed window to pan it, drag (or use the arrow keys on) its edges
 * to resize; a click centres the window there.
 */
export function TraceMinimap({
  tree,
  colors,
  zoom,
  onZoom,
}: {
  tree: SpanTree;
  colors: ReadonlyMap<string, number>;
  zoom: ZoomWindow;
  onZoom: (zoom: ZoomWindow) => void;
}) {
  const boxRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const drag = useRef<Drag | null>(null);
  const [size, setSize] = useState({ width: 0, height: 0 });
  const [theme, setTheme] = useState(0);

  useEffect(() => {
    const box = boxRef.current;
    if (!box) return;
    const observer = new ResizeObserver(([entry]) => {
      if (!entry) return;
      const { width, height } = entry.contentRect;
      setSize((s) => (s.width === width && s.height === height ? s : { width, height }));
    });
    observer.observe(box);
    const dark = window.matchMedia('(prefers-color-scheme: dark)');
    const onTheme = () => setTheme((t) => t + 1);
    dark.addEventListener('change', onTheme);
    return () => {
      observer.disconnect();
      dark.removeEventListener('change', onTheme);
    };
  }, []);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas || size.width === 0) return;
    drawMinimap(canvas, tree, colors, size.width, size.height);
  }, [tree, colors, size, theme]);

  const fractionAt = (clientX: number) => {
    const rect = boxRef.current?.getBoundingClientRect();
    if (!rect || rect.width === 0) return 0;
    return Math.min(1, Math.max(0, (clientX - rect.left) / rect.width));
  };

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    const target = e.target as HTMLElement;
    const edge = target.dataset.edge as 'from' | 'to' | undefined;
    if (edge) drag.current = { kind: 'resize', edge };
    // Inside a zoomed window a drag pans it; over the whole trace it chooses a window.
    else if (target.dataset.window !== undefined && !isFullWindow(zoom))
      drag.current = { kind: 'pan', startX: e.clientX, start: zoom };
    else
      drag.current = {
        kind: 'select',
        anchor: fractionAt(e.clientX),
        startX: e.clientX,
        moved: false,
      };
    e.currentTarget.setPointerCapture(e.pointerId);
    e.preventDefault();
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d) return;
    const width = boxRef.current?.clientWidth ?? 1;
    if (d.kind === 'pan') onZoom(panWindow(d.start, (e.clientX - d.startX) / width));
    else if (d.kind === 'resize') onZoom(resizeWindow(zoom, d.edge, fractionAt(e.clientX)));
    else if (d.moved || Math.abs(e.clientX - d.startX) > 3) {
      d.moved = true;
      onZoom(windowBetween(d.anchor, fractionAt(e.clientX)));
    }
  };
  const onPointerUp = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    drag.current = null;
    if (d?.kind === 'select' && !d.moved) {
      const width = zoom.to - zoom.from;
      onZoom(panWindow(zoom, d.anchor - (zoom.from + width / 2)));
    }
    if (e.currentTarget.hasPointerCapture(e.pointerId))
      e.currentTarget.releasePointerCapture(e.pointerId);
  };

  const onHandleKey = (edge: 'from' | 'to') => (e: KeyboardEvent<HTMLSpanElement>) => {
    const step = e.shiftKey ? 0.1 : 0.01;
    const delta = e.key === 'ArrowLeft' ? -step : e.key === 'ArrowRight' ? step : 0;
    if (delta === 0) return;
    e.preventDefault();
    onZoom(resizeWindow(zoom, edge, zoom[edge] + delta));
  };

  const at = (v: number) => formatDuration(v * tree.durationMs);
  return (
    <div
      ref={boxRef}
      className={styles.minimap}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={() => {
        drag.current = null;
      }}
      title="Drag to zoom the time axis; drag the window to pan"
    >
      <canvas
        ref={canvasRef}
        className={styles.minimapCanvas}
        role="img"
        aria-label={`Overview of all ${tree.nodes.length.toLocaleString('en-US')} spans over ${formatDuration(tree.durationMs)}`}
      />
      <div className={styles.shade} style={{ left: 0, width: `${zoom.from * 100}%` }} />
      <div className={styles.shade} style={{ left: `${zoom.to * 100}%`, right: 0 }} />
      <div
        className={styles.window}
        data-window=""
        data-zoomed={isFullWindow(zoom) ? undefined : ''}
        style={{ left: `${zoom.from * 100}%`, width: `${(zoom.to - zoom.from) * 100}%` }}
      >
        {(['from', 'to'] as const).map((edge) => (
          <span
            key={edge}
            role="slider"
            tabIndex={0}
            data-edge={edge}
            className={`${styles.handle} ${edge === 'from' ? styles.handleFrom : styles.handleTo}`}
            aria-label={edge === 'from' ? 'Zoom window start' : 'Zoom window end'}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={Math.round(zoom[edge] * 1000) / 10}
            aria-valuetext={at(zoom[edge])}
            onKeyDown={onHandleKey(edge)}
          />
        ))}
      </div>
    </div>
  );
}

/**
 * Every span as a thin bar in its service's colour (bucketed by colour, so the canvas switches
 * fill style ten times), then each error span's start as a short red tick on top.
 */
function drawMinimap(
  canvas: HTMLCanvasElement,
  tree: SpanTree,
  colors: ReadonlyMap<string, number>,
  width: number,
  height: number,
) {
  const ratio = window.devicePixelRatio || 1;
  canvas.width = Math.round(width * ratio);
  canvas.height = Math.round(height * ratio);
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.clearRect(0, 0, width, height);
  const n = tree.nodes.length;
  if (n === 0) return;
  const style = getComputedStyle(canvas);
  const fills: string[] = [];
  for (let slot = 0; slot < 10; slot++) {
    fills.push(style.getPropertyValue(`--svc-${slot}`).trim() || '#888');
  }
  const errorFill = style.getPropertyValue('--danger').trim() || '#c0262d';
  const total = tree.durationMs > 0 ? tree.durationMs : 1;
  const pad = 3;
  const usable = height - pad * 2;
  const rowH = Math.max(1, usable / n);
  const buckets: number[][] = Array.from({ length: fills.length }, () => []);
  for (let i = 0; i < n; i++) {
    const node = tree.nodes[i] as SpanNode;
    (buckets[(colors.get(node.span.service_name) ?? 0) % fills.length] as number[]).push(i);
  }
  buckets.forEach((indices, bucket) => {
    ctx.fillStyle = fills[bucket] as string;
    for (const i of indices) {
      const node = tree.nodes[i] as SpanNode;
      const x = (node.offset / total) * width;
      const w = Math.max(1, (Math.max(0, node.span.duration_ms) / total) * width);
      ctx.fillRect(x, pad + (i / n) * usable, w, rowH);
    }
  });
  ctx.fillStyle = errorFill;
  for (const i of tree.errors) {
    const node = tree.nodes[i] as SpanNode;
    ctx.fillRect((node.offset / total) * width, pad + (i / n) * usable - 1, 2, rowH + 2);
  }
}
