import type { AlertPreview } from '../../api/queries/alerts';
import { utcTimeTicks } from '../../lib/time-ticks';

/** One bucket of the preview: its start (epoch ms) and value (`null`: no data in it). */
export type PreviewRow = { x: number; value: number | null };
export type FireSpan = { from: number; to: number };
export type PreviewMark = {
  key: string;
  x: number;
  release: string;
  environment: string;
  at: string;
};

export type PreviewShape = {
  rows: PreviewRow[];
  domain: [number, number];
  ticks: number[];
  span: number;
  threshold: number | null;
  spans: FireSpan[];
  marks: PreviewMark[];
  /** How many of the buckets would have fired (for the words under the chart). */
  firingBuckets: number;
  /** The highest value (so the threshold line always fits on the y axis). */
  max: number;
};

/**
 * What the preview chart draws: the points in time order, the axis from the first bucket's
 * start to the last bucket's end, the would-fire spans and deployment marks clamped to it.
 */
export function previewShape(preview: AlertPreview): PreviewShape {
  const step = preview.interval_minutes * 60_000;
  const rows = preview.points
    .map((p) => ({ x: Date.parse(p.t), value: p.value }))
    .filter((r) => Number.isFinite(r.x))
    .sort((a, b) => a.x - b.x);
  const first = rows[0]?.x ?? Date.now() - 24 * 3_600_000;
  const last = (rows[rows.length - 1]?.x ?? Date.now()) + step;
  const clamp = (t: number) => Math.min(Math.max(t, first), last);
  const spans = preview.would_fire
    // A span still firing at the end of the day shown has no end: it runs to the axis's end.
    .map((s) => ({
      from: clamp(Date.parse(s.start)),
      to: s.end === null ? last : clamp(Date.parse(s.end)),
    }))
    .filter((s) => Number.isFinite(s.from) && Number.isFinite(s.to) && s.to > s.from);
  const marks = preview.deployments
    .map((d, i) => ({
      key: `${i}-${d.release}-${d.environment}`,
      x: clamp(Date.parse(d.deployed_at)),
      release: d.release,
      environment: d.environment,
      at: d.deployed_at,
    }))
    .filter((m) => Number.isFinite(m.x));
  const firingBuckets = rows.filter((r) => spans.some((s) => r.x >= s.from && r.x < s.to)).length;
  const values = rows.flatMap((r) => (r.value === null ? [] : [r.value]));
  const max = Math.max(0, preview.threshold ?? 0, ...values);
  return {
    rows,
    domain: [first, last],
    ticks: utcTimeTicks(first, last),
    span: last - first,
    threshold: preview.threshold,
    spans,
    marks,
    firingBuckets,
    max,
  };
}

/** The words under the chart: how often it would have fired over the day shown. */
export function previewSummary(preview: AlertPreview): string {
  const n = preview.would_fire.length;
  const over = `over the last 24 hours (buckets of ${preview.interval_minutes} min)`;
  if (preview.points.length === 0) return `No data ${over}: the rule would not have fired.`;
  if (n === 0) return `It would not have fired ${over}.`;
  return `It would have fired ${n === 1 ? 'once' : `${n} times`} ${over}.`;
}
