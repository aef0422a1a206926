import type { LogAttributeCoverage } from '../../api/queries/logs';

/** `980`, `12.3K`, `1.2M`: a count at a glance (the exact figure goes in the explanation). */
export function compactCount(n: number): string {
  if (n < 1000) return String(n);
  const units: [number, string][] = [
    [1e9, 'B'],
    [1e6, 'M'],
    [1e3, 'K'],
  ];
  for (const [size, suffix] of units) {
    if (n >= size) {
      const v = n / size;
      // Never round up to the next unit's "1000K".
      const text = v >= 100 ? String(Math.floor(v)) : (Math.floor(v * 10) / 10).toFixed(1);
      return `${text.replace(/\.0$/, '')}${suffix}`;
    }
  }
  return String(n);
}

/**
 * The share of logs an attribute filter can search (fully or partly indexed), as text. It is
 * rounded down, so "100%" is said only when nothing is left out.
 */
export function searchedPercent(coverage: LogAttributeCoverage): string {
  const { total_logs, unindexed_logs } = coverage;
  if (total_logs <= 0) return '100%';
  const searched = total_logs - unindexed_logs;
  if (searched >= total_logs) return '100%';
  const pct = (searched / total_logs) * 100;
  if (pct >= 99) return `${(Math.floor(pct * 10) / 10).toFixed(1)}%`;
  if (pct > 0 && pct < 1) return '<1%';
  return `${Math.floor(pct)}%`;
}

/** "Searched 97% of 1.2M logs" — or what to say when the range holds none. */
export function coverageSummary(coverage: LogAttributeCoverage): string {
  if (coverage.total_logs === 0) return 'No logs in this range to search';
  const noun = coverage.total_logs === 1 ? 'log' : 'logs';
  return `Searched ${searchedPercent(coverage)} of ${compactCount(coverage.total_logs)} ${noun}`;
}

/** Whether some logs are left out, wholly or in part (worth a warning tone). */
export function coverageIsPartial(coverage: LogAttributeCoverage): boolean {
  return coverage.partially_indexed_logs > 0 || coverage.unindexed_logs > 0;
}
