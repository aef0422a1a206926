/** The part of the trace on the time axis, as fractions of its duration (0 ≤ from < to ≤ 1). */
export type ZoomWindow = { from: number; to: number };

export const FULL_WINDOW: ZoomWindow = { from: 0, to: 1 };

/** The narrowest window (0.05% of the trace), so a bar never becomes infinitely wide. */
export const MIN_WINDOW = 0.0005;

const clamp01 = (v: number) => Math.min(1, Math.max(0, v));

export function isFullWindow(w: ZoomWindow): boolean {
  return w.from <= 0 && w.to >= 1;
}

/** Between two points of a drag on the minimap (either order), at least MIN_WINDOW wide. */
export function windowBetween(a: number, b: number): ZoomWindow {
  const from = clamp01(Math.min(a, b));
  const to = clamp01(Math.max(a, b));
  return widen({ from, to });
}

/** Moves the window by `delta` keeping its width, stopping at the trace's edges. */
export function panWindow(w: ZoomWindow, delta: number): ZoomWindow {
  const width = w.to - w.from;
  const from = Math.min(1 - width, Math.max(0, w.from + delta));
  return { from, to: from + width };
}

/** Moves one edge to `at`, never past the other edge (less MIN_WINDOW). */
export function resizeWindow(w: ZoomWindow, edge: 'from' | 'to', at: number): ZoomWindow {
  const v = clamp01(at);
  if (edge === 'from') return { from: Math.min(v, w.to - MIN_WINDOW), to: w.to };
  return { from: w.from, to: Math.max(v, w.from + MIN_WINDOW) };
}

/** Zooms around `center` (0..1 of the trace) by `factor` (< 1 zooms in). */
export function zoomAround(w: ZoomWindow, center: number, factor: number): ZoomWindow {
  const width = Math.min(1, Math.max(MIN_WINDOW, (w.to - w.from) * factor));
  const ratio = w.to - w.from > 0 ? (center - w.from) / (w.to - w.from) : 0.5;
  const from = Math.min(1 - width, Math.max(0, center - ratio * width));
  return { from, to: from + width };
}

function widen(w: ZoomWindow): ZoomWindow {
  if (w.to - w.from >= MIN_WINDOW) return w;
  const mid = (w.from + w.to) / 2;
  const from = Math.min(1 - MIN_WINDOW, Math.max(0, mid - MIN_WINDOW / 2));
  return { from, to: from + MIN_WINDOW };
}

/** Where a span's bar sits in the view: left and width as fractions of the bar column. */
export type BarPlacement = {
  left: number;
  width: number;
  /** The span lies wholly before or after the window. */
  outside: 'before' | 'after' | null;
};

/**
 * The bar of a span starting `offsetMs` after the trace start and lasting `durationMs`, in a
 * trace of `traceMs`, seen through the window: clipped to the view. A bar is at least a hair
 * wide (drawn with a minimum width by CSS), so a 0 ms span still shows.
 */
export function barPlacement(
  offsetMs: number,
  durationMs: number,
  traceMs: number,
  w: ZoomWindow,
): BarPlacement {
  const total = traceMs > 0 ? traceMs : 1;
  const viewFrom = w.from * total;
  const viewMs = (w.to - w.from) * total;
  const start = (offsetMs - viewFrom) / viewMs;
  const end = (offsetMs + Math.max(0, durationMs) - viewFrom) / viewMs;
  if (end < 0) return { left: 0, width: 0, outside: 'before' };
  if (start > 1) return { left: 1, width: 0, outside: 'after' };
  const left = Math.max(0, start);
  return { left, width: Math.min(1, end) - left, outside: null };
}
