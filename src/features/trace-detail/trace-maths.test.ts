import { describe, expect, it } from 'vitest';
import { adjacentError, errorPosition, reachableErrors } from './error-navigation';
import { serviceColors, PALETTE_SIZE } from './service-colors';
import { slowestPathNodes } from './slowest-path';
import { filterSpans } from './span-filter';
import { buildSpanTree } from './span-tree';
import { testSpan } from './test-spans';
import { gridGradient, tickStep, timeTicks } from './time-axis';
import { traceOverview } from './trace-overview';
import {
  barPlacement,
  FULL_WINDOW,
  isFullWindow,
  MIN_WINDOW,
  panWindow,
  resizeWindow,
  windowBetween,
  zoomAround,
} from './zoom-window';

describe('time axis', () => {
  it('steps in 1, 2, 5 times a power of ten', () => {
    expect(tickStep(1000, 5)).toBe(200);
    expect(tickStep(1000, 10)).toBe(100);
    expect(tickStep(0.3, 6)).toBeCloseTo(0.05);
    expect(tickStep(7000, 6)).toBe(2000);
  });

  it('places round ticks inside the view', () => {
    expect(timeTicks(0, 1000, 5).map((t) => t.ms)).toEqual([0, 200, 400, 600, 800, 1000]);
    const zoomed = timeTicks(150, 350, 4);
    expect(zoomed.map((t) => t.ms)).toEqual([150, 200, 250, 300, 350]);
    expect(zoomed[1]?.at).toBeCloseTo(0.25);
    expect(timeTicks(0, 0.3, 3).map((t) => t.ms)).toEqual([0, 0.1, 0.2, 0.3]);
    expect(timeTicks(5, 5, 4)).toEqual([{ ms: 5, at: 0 }]);
  });

  it('draws the ticks as 1px lines of one gradient', () => {
    expect(gridGradient([{ ms: 50, at: 0.5 }], 'red')).toBe(
      'linear-gradient(to right, transparent 0, transparent calc(50.0000% - 0.5px), red calc(50.0000% - 0.5px), red calc(50.0000% + 0.5px), transparent calc(50.0000% + 0.5px))',
    );
  });
});

describe('zoom window', () => {
  it('selects between two drag points, never narrower than the minimum', () => {
    expect(windowBetween(0.6, 0.2)).toEqual({ from: 0.2, to: 0.6 });
    const tiny = windowBetween(0.5, 0.5);
    expect(tiny.to - tiny.from).toBeCloseTo(MIN_WINDOW);
    expect(windowBetween(-1, 2)).toEqual(FULL_WINDOW);
  });

  it('pans within the trace and resizes without crossing edges', () => {
    expect(panWindow({ from: 0.2, to: 0.4 }, 0.1)).toEqual({ from: 0.30000000000000004, to: 0.5 });
    expect(panWindow({ from: 0.2, to: 0.4 }, 0.9)).toEqual({ from: 0.8, to: 1 });
    expect(panWindow({ from: 0.2, to: 0.4 }, -0.9)).toEqual({ from: 0, to: 0.2 });
    expect(resizeWindow({ from: 0.2, to: 0.4 }, 'from', 0.5).from).toBeCloseTo(0.4 - MIN_WINDOW);
    expect(resizeWindow({ from: 0.2, to: 0.4 }, 'to', 0.9)).toEqual({ from: 0.2, to: 0.9 });
    expect(isFullWindow(FULL_WINDOW)).toBe(true);
    expect(isFullWindow({ from: 0, to: 0.5 })).toBe(false);
  });

  it('zooms around a point', () => {
    const w = zoomAround(FULL_WINDOW, 0.5, 0.5);
    expect(w.from).toBeCloseTo(0.25);
    expect(w.to).toBeCloseTo(0.75);
    expect(zoomAround(w, 0.5, 10)).toEqual(FULL_WINDOW);
  });

  it('places bars in the view and clips them', () => {
    expect(barPlacement(250, 500, 1000, FULL_WINDOW)).toEqual({
      left: 0.25,
      width: 0.5,
      outside: null,
    });
    const half = { from: 0.5, to: 1 };
    expect(barPlacement(250, 500, 1000, half)).toEqual({ left: 0, width: 0.5, outside: null });
    expect(barPlacement(0, 100, 1000, half).outside).toBe('before');
    expect(barPlacement(900, 100, 1000, { from: 0, to: 0.5 }).outside).toBe('after');
    expect(barPlacement(0, 0, 0, FULL_WINDOW)).toEqual({ left: 0, width: 0, outside: null });
  });
});

describe('service colours', () => {
  it('gives each service of a trace its own slot, the same whatever the order', () => {
    const a = serviceColors(['api', 'db', 'cache', 'payments']);
    const b = serviceColors(['payments', 'cache', 'db', 'api', 'api']);
    expect(a).toEqual(b);
    expect(new Set(a.values()).size).toBe(4);
    for (const slot of a.values()) expect(slot).toBeLessThan(PALETTE_SIZE);
  });

  it('reuses slots only once the palette is used up', () => {
    const many = serviceColors(Array.from({ length: 14 }, (_, i) => `svc-${i}`));
    expect(many.size).toBe(14);
    expect(new Set(many.values()).size).toBe(PALETTE_SIZE);
  });
});

const tree = buildSpanTree([
  testSpan('1', null, 0, 100, { name: 'GET /checkout' }),
  testSpan('2', '1', 1, 60, { status: 'error', service_name: 'db', release: 'db@2' }),
  testSpan('3', '2', 2, 50),
  testSpan('4', '1', 70, 20, { status: 'error' }),
  testSpan('5', 'ff', 80, 5, { status: 'error', environment: 'staging' }),
]);

describe('error navigation', () => {
  it('steps through errors in tree order and wraps around', () => {
    // Tree order: 1, 2, 3, 4, 5(orphan) → errors at 1, 3, 4.
    expect(tree.errors).toEqual([1, 3, 4]);
    expect(adjacentError(tree.errors, null, 1)).toBe(1);
    expect(adjacentError(tree.errors, null, -1)).toBe(4);
    expect(adjacentError(tree.errors, 1, 1)).toBe(3);
    expect(adjacentError(tree.errors, 2, 1)).toBe(3);
    expect(adjacentError(tree.errors, 4, 1)).toBe(1);
    expect(adjacentError(tree.errors, 3, -1)).toBe(1);
    expect(adjacentError(tree.errors, 1, -1)).toBe(4);
    expect(adjacentError(tree.errors, 2, -1)).toBe(1);
    expect(adjacentError([], null, 1)).toBe(-1);
    expect(errorPosition(tree.errors, 3)).toBe(2);
    expect(errorPosition(tree.errors, 2)).toBeNull();
  });

  it('skips errors the filter hides', () => {
    expect(reachableErrors(tree, filterSpans(tree, { service: 'db' }))).toEqual([1]);
    expect(reachableErrors(tree, null)).toBe(tree.errors);
  });
});

describe('slowest path', () => {
  it("uses the summary's path when there is one", () => {
    expect([
      ...slowestPathNodes(tree, [{ span_id: '0000000000000001' }, { span_id: 'nope' }]),
    ]).toEqual([0]);
  });

  it('walks the longest child from the first row otherwise', () => {
    expect([...slowestPathNodes(tree, null)]).toEqual([0, 1, 2]);
    expect([...slowestPathNodes(buildSpanTree([]), [])]).toEqual([]);
  });
});

describe('traceOverview', () => {
  it('counts the facts from the spans when there is no summary', () => {
    const o = traceOverview(tree, null);
    expect(o).toMatchObject({
      rootName: 'GET /checkout',
      rootService: 'api',
      rootMissing: false,
      durationMs: 100,
      spanCount: 5,
      errorCount: 3,
      orphanCount: 1,
      releases: ['api@1.0.0', 'db@2'],
      environments: ['production', 'staging'],
      fromSummary: false,
    });
    expect(o.services).toEqual([
      { service_name: 'api', span_count: 4, error_span_count: 2 },
      { service_name: 'db', span_count: 1, error_span_count: 1 },
    ]);
  });
});
