import type { MetricSeries, VolumeSummary } from '../../api/queries/metrics';
import { formatBytes, formatCompactCount } from '../../lib/format-bytes';
import { INTERVAL_LABELS } from '../../lib/series-window';
import { utcTimeTicks } from '../../lib/time-ticks';

/** A chart row: the bucket start (epoch ms) and one value per drawn key (`null` = no data). */
export type ChartRow = { x: number } & Record<string, number | null>;

/** How many line colours the palette holds (`--line-0` … `--line-9` in `ui/series-palette.module.css`). */
export const LINE_COLORS = 10;

/** One drawn line: its row key, its words, and its colour and dash (colour is never alone). */
export type LineKey = {
  dataKey: string;
  label: string;
  color: number;
  /** Solid for the first ten lines, dashed for the next ten. */
  dashed: boolean;
};

export type TimeAxis = { domain: [number, number]; ticks: number[]; span: number };

function timeAxis(since: string, until: string, buckets: readonly string[]): TimeAxis {
  const from = Date.parse(since);
  const to = Date.parse(until);
  const first = Date.parse(buckets[0] ?? since);
  const start = Number.isFinite(from) ? from : first;
  const end = Number.isFinite(to) && to > start ? to : start + 1;
  return { domain: [start, end], ticks: utcTimeTicks(start, end), span: end - start };
}

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

/** How long a bucket is, in words: `15-minute`, `1-hour`, `1-day`. */
export function bucketWords(interval: MetricSeries['interval']): string {
  const label = INTERVAL_LABELS[interval];
  return label.replace(/^(\d+) (minute|hour|day)s?$/, '$1-$2');
}

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

export const STREAMS = ['issues', 'logs', 'traces', 'actions', 'metrics'] as const;
export type Stream = (typeof STREAMS)[number];

export const STREAM_LABELS: Record<Stream, string> = {
  issues: 'Issue events',
  logs: 'Logs',
  traces: 'Spans',
  actions: 'Actions',
  metrics: 'Metric samples',
};

export type VolumeChartData = {
  events: ChartRow[];
  bytes: ChartRow[];
  axis: TimeAxis;
  /** Totals over the range per stream (all streams, shown or not). */
  totals: Record<Stream, { events: number; bytes: number }>;
  /** Streams whose bytes are counted (usage counts bytes for logs and metrics only). */
  streamsWithBytes: Stream[];
};

/**
 * The volume answer → one row per bucket for the events chart and one for the bytes chart
 * (never one axis for both), only for the streams shown. Counts are `0` in empty buckets, as
 * the service sends them.
 */
export function volumeChartData(summary: VolumeSummary, shown: readonly Stream[]): VolumeChartData {
  const events: ChartRow[] = [];
  const bytes: ChartRow[] = [];
  summary.buckets.forEach((b, i) => {
    const x = Date.parse(b);
    const e = { x } as ChartRow;
    const by = { x } as ChartRow;
    for (const stream of shown) {
      e[stream] = summary.streams[stream].events[i] ?? 0;
      by[stream] = summary.streams[stream].bytes[i] ?? 0;
    }
    events.push(e);
    bytes.push(by);
  });
  const totals = {} as VolumeChartData['totals'];
  for (const stream of STREAMS) {
    const s = summary.streams[stream];
    totals[stream] = {
      events: s.events.reduce((sum, n) => sum + n, 0),
      bytes: s.bytes.reduce((sum, n) => sum + n, 0),
    };
  }
  const streamsWithBytes = STREAMS.filter((s) => totals[s].bytes > 0);
  return {
    events,
    bytes,
    axis: timeAxis(summary.since, summary.until, summary.buckets),
    totals,
    streamsWithBytes,
  };
}

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
