/** Shares and their changes as the console shows them (tabular, one decimal, never rounded to 0). */

/** Basis points (0 to 10000) as a percentage: `3.2%`, `0.05%` below 0.1%, `100%`. */
export function formatBasisPoints(bp: number): string {
  if (!Number.isFinite(bp)) return '—';
  const percent = bp / 100;
  if (percent === 0) return '0%';
  if (percent === 100) return '100%';
  // A share below 0.1% stays visible instead of rounding to 0.0%.
  if (percent < 0.1) return `${percent.toFixed(2)}%`;
  // A share below 100% never rounds up to it.
  if (percent > 99.9) return `${(Math.floor(percent * 100) / 100).toFixed(2)}%`;
  return `${percent.toFixed(1)}%`;
}

/** A change of a share in percentage points: `+1.4 pp`, `−0.3 pp`, `±0 pp`. */
export function formatPointChange(points: number): string {
  if (!Number.isFinite(points)) return '—';
  const rounded = Math.round(points * 10) / 10;
  if (rounded === 0) return points === 0 ? '±0 pp' : points > 0 ? '+<0.1 pp' : '−<0.1 pp';
  const text = Math.abs(rounded).toFixed(1);
  return rounded > 0 ? `+${text} pp` : `−${text} pp`;
}

/** A rate the service sends as a fraction from 0 to 1, shown like a share: `56.2%`. */
export function formatFraction(fraction: number): string {
  return formatBasisPoints(fraction * 10_000);
}

/**
 * The service's `percent_used` (whole percent, rounded down) beside the period's usage, in a
 * sentence: `12%`, or `under 1%` when something is used but less than a whole percent (not a
 * silent `0%`).
 */
export function formatPercentUsed(
  percent: number,
  used: { events: number; bytes: number },
): string {
  if (percent === 0 && (used.events > 0 || used.bytes > 0)) return 'under 1%';
  return `${String(percent)}%`;
}
