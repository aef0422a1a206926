import type { VolumeSummary } from '../../api/queries/metrics';
import { timeAxis, type ChartRow, type LineKey, type TimeAxis } from './chart-rows';

export const STREAMS = ['issues', 'logs', 'traces', 'actions', 'metrics'] as const;
export type Stream = (typeof STREAMS)[number];

export const STREAM_LABELS: Record<Stream, string> = {
  issues: 'Issue events',
  logs: 'Logs',
  traces: 'Spans',
  actions: 'Actions',
  metrics: 'Metric samples',
};

/** A stream's colour slot, the same on every volume chart. */
export const STREAM_COLOR: Record<Stream, number> = {
  issues: 5,
  logs: 0,
  traces: 1,
  actions: 2,
  metrics: 3,
};

/** The lines of the shown streams, in the fixed order, each in its own colour. */
export function streamLines(shown: readonly Stream[]): LineKey[] {
  return STREAMS.filter((s) => shown.includes(s)).map((s) => ({
    dataKey: s,
    label: STREAM_LABELS[s],
    color: STREAM_COLOR[s],
    dashed: false,
  }));
}

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

/** `Logs 12, Spans 40`: the shown streams' event totals, for a chart's accessible name. */
export function streamTotalsText(
  totals: VolumeChartData['totals'],
  shown: readonly Stream[],
): string {
  return STREAMS.filter((s) => shown.includes(s))
    .map((s) => `${STREAM_LABELS[s]} ${totals[s].events.toLocaleString('en-US')}`)
    .join(', ');
}
