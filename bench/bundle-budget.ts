import type { BundleReport } from './bundle-size';

/** Issue 11's size budget, gzip as served: what a first visit loads, and any one lazy chunk. */
export const BUNDLE_BUDGET = {
  initial_js_gzip_bytes: 150 * 1024,
  route_chunk_gzip_bytes: 120 * 1024,
} as const;

/** The largest lazily loaded JS chunk (a route, or a library a route pulls in). */
export function largestRouteChunk(
  report: BundleReport,
): { file: string; gzip_bytes: number } | null {
  return report.chunks.find((c) => !c.initial && c.file.endsWith('.js')) ?? null;
}

/** Each budget the build exceeds, in words; empty when it fits. */
export function bundleBudgetProblems(report: BundleReport): string[] {
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  const problems: string[] = [];
  if (report.initial_js_gzip_bytes > BUNDLE_BUDGET.initial_js_gzip_bytes) {
    problems.push(
      `initial JS is ${kb(report.initial_js_gzip_bytes)} gzip, over the ${kb(BUNDLE_BUDGET.initial_js_gzip_bytes)} budget`,
    );
  }
  for (const c of report.chunks) {
    if (c.initial || !c.file.endsWith('.js')) continue;
    if (c.gzip_bytes > BUNDLE_BUDGET.route_chunk_gzip_bytes) {
      problems.push(
        `${c.file} is ${kb(c.gzip_bytes)} gzip, over the ${kb(BUNDLE_BUDGET.route_chunk_gzip_bytes)} route chunk budget`,
      );
    }
  }
  return problems;
}
