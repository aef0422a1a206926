import { describe, expect, it } from 'vitest';
import { bundleBudgetProblems, largestRouteChunk } from './bundle-budget';
import type { BundleReport } from './bundle-size';

const KB = 1024;
const report = (initial: number, lazy: number[]): BundleReport => ({
  initial_js_gzip_bytes: initial,
  initial_css_gzip_bytes: 2 * KB,
  chunks: [
    { file: 'assets/index.js', gzip_bytes: initial, initial: true },
    ...lazy.map((n, i) => ({ file: `assets/route-${i}.js`, gzip_bytes: n, initial: false })),
    { file: 'assets/big.css', gzip_bytes: 500 * KB, initial: false },
  ].sort((a, b) => b.gzip_bytes - a.gzip_bytes),
});

describe('bundle budget', () => {
  it('passes a build inside both budgets, at the limits themselves', () => {
    expect(bundleBudgetProblems(report(150 * KB, [120 * KB, 3 * KB]))).toEqual([]);
  });

  it('names an initial load over 150 KB gzip', () => {
    expect(bundleBudgetProblems(report(150 * KB + 1, [10 * KB]))).toEqual([
      'initial JS is 150.0 KB gzip, over the 150.0 KB budget',
    ]);
  });

  it('names every route chunk over 120 KB gzip, and ignores stylesheets', () => {
    const problems = bundleBudgetProblems(report(100 * KB, [121 * KB, 130 * KB, 5 * KB]));
    expect(problems).toHaveLength(2);
    expect(problems[0]).toContain('assets/route-1.js is 130.0 KB gzip');
    expect(problems[1]).toContain('assets/route-0.js is 121.0 KB gzip');
  });

  it('finds the largest lazy JS chunk, not the initial one or a stylesheet', () => {
    expect(largestRouteChunk(report(140 * KB, [20 * KB, 90 * KB]))).toEqual({
      file: 'assets/route-1.js',
      gzip_bytes: 90 * KB,
      initial: false,
    });
  });
});
