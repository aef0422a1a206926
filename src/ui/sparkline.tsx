import styles from './sparkline.module.css';

const WIDTH = 72;
const HEIGHT = 20;
const GAP = 1;

/** "hour", "2 hours", "day", … for a bucket length in seconds. */
export function bucketUnit(bucketSeconds: number): string {
  const hours = bucketSeconds / 3600;
  if (hours === 1) return 'hour';
  if (hours === 24) return 'day';
  if (hours % 24 === 0) return `${hours / 24} days`;
  return `${hours} hours`;
}

/** The accessible summary: "Occurrences, last 24 hours: 12 total, peak 5 per hour". */
export function sparklineSummary(
  label: string,
  counts: readonly number[],
  bucketSeconds: number,
): string {
  const total = counts.reduce((sum, n) => sum + n, 0);
  const peak = counts.reduce((max, n) => Math.max(max, n), 0);
  const totalText = total.toLocaleString('en-US');
  if (total === 0) return `${label}: none`;
  return `${label}: ${totalText} total, peak ${peak.toLocaleString('en-US')} per ${bucketUnit(bucketSeconds)}`;
}

export type SparkBar = { x: number; y: number; width: number; height: number };

/**
 * One bar per count, oldest left, scaled to the peak; a non-zero count is at least 2px tall so
 * a single occurrence stays visible beside a busy hour.
 */
export function sparkBars(counts: readonly number[], width = WIDTH, height = HEIGHT): SparkBar[] {
  const peak = counts.reduce((max, n) => Math.max(max, n), 0);
  if (counts.length === 0 || peak === 0) return [];
  const slot = width / counts.length;
  const barWidth = Math.max(slot - GAP, 1);
  return counts.flatMap((n, i) => {
    if (n <= 0) return [];
    const h = Math.max((n / peak) * height, 2);
    return [{ x: i * slot, y: height - h, width: barWidth, height: h }];
  });
}

/**
 * A tiny bar chart of counts over time in an inline SVG (no chart library), read by assistive
 * technology as one image named by its summary.
 */
export function Sparkline({
  counts,
  bucketSeconds,
  label,
}: {
  counts: readonly number[];
  bucketSeconds: number;
  /** What and when, e.g. "Occurrences, last 24 hours". */
  label: string;
}) {
  const summary = sparklineSummary(label, counts, bucketSeconds);
  return (
    <svg
      className={styles.sparkline}
      role="img"
      aria-label={summary}
      width={WIDTH}
      height={HEIGHT}
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      preserveAspectRatio="none"
    >
      <title>{summary}</title>
      <line className={styles.baseline} x1={0} x2={WIDTH} y1={HEIGHT - 0.5} y2={HEIGHT - 0.5} />
      {sparkBars(counts).map((b) => (
        <rect key={b.x} className={styles.bar} x={b.x} y={b.y} width={b.width} height={b.height} />
      ))}
    </svg>
  );
}
