import type { MetricSeries, VolumeSummary } from '../../api/queries/metrics';
import { formatBytes, formatCompactCount } from '../../lib/format-bytes';
import { bucketWords } from '../../lib/series-window';
import {
  LINE_COLORS,
  timeAxis,
  type ChartRow,
  type LineKey,
  type TimeAxis,
} from '../../widgets/time-series/chart-rows';
import { STREAMS, type Stream } from '../../widgets/time-series/volume-chart-data';

// --- Metric series ------------------------------------------------------------------------

export type SeriesChartData = {
  rows: ChartRow[];
  lines: (LineKey & { samples: number; isolated: ReadonlySet<number> })[];
  axis: TimeAxis;
  /** Whether any bucket of any series holds a value. */
  hasValues: boolean;
};

/** What a series is called: its `group_by` value, or the metric name for one series. */
export function seriesLabel(key: string | null, metricName: string): string {
  if (key === null) return metricName;
  return key === '' ? '(empty)' : key;
}

/**
 * Buckets → rows for a line per series. Buckets without samples stay `null`, so the chart
 * draws a gap there, never a drop to zero; a value alone between two gaps is marked
 * `isolated` so the chart can draw it as a dot (a line needs two points).
 */
export function seriesChartData(series: MetricSeries): SeriesChartData {
  const rows: ChartRow[] = series.buckets.map((b) => ({ x: Date.parse(b) }) as ChartRow);
  let hasValues = false;
  const lines = series.series.map((s, index) => {
    const dataKey = `s${index}`;
    const isolated = new Set<number>();
    rows.forEach((row, i) => {
      const value = s.values[i];
      const v = value === undefined || value === null || !Number.isFinite(value) ? null : value;
      row[dataKey] = v;
      if (v !== null) {
        hasValues = true;
        const before = i > 0 ? s.values[i - 1] : null;
        const after = s.values[i + 1];
        if ((before ?? null) === null && (after ?? null) === null) isolated.add(i);
      }
    });
    return {
      dataKey,
      label: seriesLabel(s.key, series.name),
      color: index % LINE_COLORS,
      dashed: index >= LINE_COLORS,
      samples: s.samples.reduce((sum, n) => sum + n, 0),
      isolated,
    };
  });
  return { rows, lines, axis: timeAxis(series.since, series.until, series.buckets), hasValues };
}

const KIND_TEXT = { counter: 'counter', gauge: 'gauge', histogram: 'histogram' } as const;

/**
 * The aggregation the service used, in words, from the answer itself (never guessed from the
 * name): "Average of the samples in each 15-minute bucket (gauge)".
 */
export function aggregationText(
  series: Pick<MetricSeries, 'aggregation' | 'kind' | 'interval'>,
): string {
  const kind = series.kind ? ` (${KIND_TEXT[series.kind]})` : '';
  const bucket = `each ${bucketWords(series.interval)} bucket`;
  switch (series.aggregation) {
    case 'avg':
      return `Average of the samples in ${bucket}${kind}`;
    case 'sum':
      return `Sum of the samples in ${bucket}${kind}`;
    case 'max':
      return `Largest sample in ${bucket}${kind}: a cumulative counter`;
    default:
      return 'No samples in range, so no aggregation';
  }
}

/**
 * The truncation note. The answer only says that more series matched; `total` is the count
 * from a read at the largest limit when there is one (`null` when even 20 were not all).
 */
export function truncationText(
  shown: number,
  truncated: boolean,
  total: number | null | undefined,
): string | null {
  if (!truncated) return null;
  if (typeof total === 'number' && total > shown) return `Showing ${shown} of ${total} series`;
  if (total === null) return `Showing ${shown} of more than 20 series`;
  return `Showing ${shown} series; more matched`;
}

/** A value with its unit, as the axis and the tooltip write it. */
export function formatMetricValue(value: number | null | undefined, unit: string | null): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return 'no samples';
  const abs = Math.abs(value);
  const digits = abs === 0 || abs >= 100 ? 0 : abs >= 10 ? 1 : abs >= 1 ? 2 : 3;
  const text = value.toLocaleString('en-US', { maximumFractionDigits: digits });
  return unit ? `${text} ${unit}` : text;
}

/** An axis tick: compact (`1.2k`), the unit being on the axis's label. */
export const formatValueTick = (value: number) => formatCompactCount(value);

// --- Volume -------------------------------------------------------------------------------

/** The streams of the URL's `streams` value (comma-separated); absent or unreadable = all. */
export function parseStreams(value: string | undefined): Stream[] {
  if (value === undefined) return [...STREAMS];
  const picked = new Set(value.split(','));
  return STREAMS.filter((s) => picked.has(s));
}

/** The URL value for shown streams: absent when all are shown, `none` when none is. */
export function serializeStreams(shown: readonly Stream[]): string | undefined {
  if (shown.length === STREAMS.length) return undefined;
  if (shown.length === 0) return 'none';
  return STREAMS.filter((s) => shown.includes(s)).join(',');
}

export function toggleStream(shown: readonly Stream[], stream: Stream): Stream[] {
  return shown.includes(stream)
    ? shown.filter((s) => s !== stream)
    : STREAMS.filter((s) => s === stream || shown.includes(s));
}

export { formatBytes, formatCompactCount };

export const formatBytesTick = (value: number) => formatBytes(value);

/**
 * Several projects' volume answers for the same range and interval → one, bucket by bucket.
 * Answers with other buckets than the first (a range resolved at another moment) are matched
 * by bucket start; a bucket only some of them hold counts what they hold.
 */
export function sumVolumes(summaries: readonly VolumeSummary[]): VolumeSummary | null {
  const [first, ...rest] = summaries;
  if (!first) return null;
  if (rest.length === 0) return first;
  const index = new Map(first.buckets.map((b, i) => [Date.parse(b), i]));
  const streams = {} as VolumeSummary['streams'];
  for (const stream of STREAMS) {
    streams[stream] = {
      events: [...first.streams[stream].events],
      bytes: [...first.streams[stream].bytes],
    };
  }
  for (const summary of rest) {
    summary.buckets.forEach((b, j) => {
      const i = index.get(Date.parse(b));
      if (i === undefined) return;
      for (const stream of STREAMS) {
        const into = streams[stream];
        into.events[i] = (into.events[i] ?? 0) + (summary.streams[stream].events[j] ?? 0);
        into.bytes[i] = (into.bytes[i] ?? 0) + (summary.streams[stream].bytes[j] ?? 0);
      }
    });
  }
  return { ...first, streams };
}
