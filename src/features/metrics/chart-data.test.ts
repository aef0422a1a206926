import { describe, expect, it } from 'vitest';
import type { MetricSeries, VolumeSummary } from '../../api/queries/metrics';
import {
  aggregationText,
  parseStreams,
  seriesChartData,
  serializeStreams,
  sumVolumes,
  toggleStream,
  truncationText,
  formatMetricValue,
} from './chart-data';

const B0 = '2026-11-20T12:00:00.000Z';
const B1 = '2026-11-20T12:15:00.000Z';
const B2 = '2026-11-20T12:30:00.000Z';
const B3 = '2026-11-20T12:45:00.000Z';

const series = (over: Partial<MetricSeries> = {}): MetricSeries => ({
  schema_version: 1,
  project_id: '00000000-0000-4000-8000-000000000001',
  name: 'http.server.duration',
  kind: 'histogram',
  unit: 'ms',
  aggregation: 'avg',
  group_by: 'release',
  interval: '15m',
  bucket_seconds: 900,
  since: B0,
  until: '2026-11-20T13:00:00.000Z',
  buckets: [B0, B1, B2, B3],
  series: [
    { key: 'web@1.0.0', values: [10, null, 30, 40], samples: [1, 0, 2, 3] },
    { key: 'web@1.0.1', values: [null, 5, null, null], samples: [0, 1, 0, 0] },
  ],
  truncated_series: false,
  ...over,
});

describe('seriesChartData', () => {
  it('makes one row per bucket and keeps empty buckets null (a gap, never zero)', () => {
    const data = seriesChartData(series());
    expect(data.rows).toHaveLength(4);
    expect(data.rows[1]).toEqual({ x: Date.parse(B1), s0: null, s1: 5 });
    expect(data.rows[0]?.s1).toBeNull();
    expect(data.hasValues).toBe(true);
  });

  it('labels series by their key, colours them in order and counts their samples', () => {
    const { lines } = seriesChartData(series());
    expect(lines.map((l) => [l.label, l.color, l.dashed, l.samples])).toEqual([
      ['web@1.0.0', 0, false, 6],
      ['web@1.0.1', 1, false, 1],
    ]);
  });

  it('marks a value alone between gaps so it can be drawn as a dot', () => {
    const { lines } = seriesChartData(series());
    expect([...(lines[1]?.isolated ?? [])]).toEqual([1]);
    expect([...(lines[0]?.isolated ?? [])]).toEqual([0]);
  });

  it('names the single series of group_by none after the metric', () => {
    const data = seriesChartData(
      series({
        group_by: 'none',
        series: [{ key: null, values: [1, 2, 3, 4], samples: [1, 1, 1, 1] }],
      }),
    );
    expect(data.lines[0]?.label).toBe('http.server.duration');
  });

  it('dashes lines past the tenth colour', () => {
    const many = Array.from({ length: 12 }, (_, i) => ({
      key: `r${i}`,
      values: [1, 1, 1, 1],
      samples: [1, 1, 1, 1],
    }));
    const { lines } = seriesChartData(series({ series: many }));
    expect(lines[10]).toMatchObject({ color: 0, dashed: true });
  });

  it('uses the widened range of the answer as the time axis', () => {
    const data = seriesChartData(series());
    expect(data.axis.domain).toEqual([Date.parse(B0), Date.parse('2026-11-20T13:00:00.000Z')]);
  });

  it('has no values when every bucket is empty', () => {
    const data = seriesChartData(
      series({ series: [{ key: 'a', values: [null, null, null, null], samples: [0, 0, 0, 0] }] }),
    );
    expect(data.hasValues).toBe(false);
  });
});

describe('texts', () => {
  it('says the aggregation the answer used', () => {
    expect(aggregationText(series())).toBe(
      'Average of the samples in each 15-minute bucket (histogram)',
    );
    expect(aggregationText(series({ aggregation: 'sum', kind: 'counter', interval: '1h' }))).toBe(
      'Sum of the samples in each 1-hour bucket (counter)',
    );
    expect(aggregationText(series({ aggregation: 'max', kind: 'counter' }))).toContain(
      'cumulative',
    );
    expect(aggregationText(series({ aggregation: null, kind: null }))).toContain('No samples');
  });

  it('says how many series are shown of how many', () => {
    expect(truncationText(10, false, undefined)).toBeNull();
    expect(truncationText(10, true, 14)).toBe('Showing 10 of 14 series');
    expect(truncationText(10, true, null)).toBe('Showing 10 of more than 20 series');
    expect(truncationText(20, true, undefined)).toBe('Showing 20 series; more matched');
  });

  it('writes values with their unit and empty buckets as words', () => {
    expect(formatMetricValue(123.456, 'ms')).toBe('123 ms');
    expect(formatMetricValue(2.3456, null)).toBe('2.35');
    expect(formatMetricValue(null, 'ms')).toBe('no samples');
  });
});

const volume = (events: number[], bytes: number[], buckets = [B0, B1]): VolumeSummary => {
  const stream = { events, bytes };
  const zero = { events: events.map(() => 0), bytes: bytes.map(() => 0) };
  return {
    schema_version: 1,
    interval: '15m',
    bucket_seconds: 900,
    since: buckets[0] ?? B0,
    until: B2,
    buckets,
    streams: { issues: zero, logs: stream, traces: zero, actions: zero, metrics: zero },
  };
};

describe('sumVolumes', () => {
  it('adds several projects up bucket by bucket', () => {
    const sum = sumVolumes([volume([1, 2], [10, 20]), volume([5, 6], [50, 60])]);
    expect(sum?.streams.logs).toEqual({ events: [6, 8], bytes: [60, 80] });
  });

  it('matches buckets by start time and ignores ones the first answer lacks', () => {
    const sum = sumVolumes([volume([1, 2], [0, 0]), volume([5, 7], [0, 0], [B1, B2])]);
    expect(sum?.streams.logs.events).toEqual([1, 7]);
  });

  it('is null without answers', () => {
    expect(sumVolumes([])).toBeNull();
  });
});

describe('streams in the URL', () => {
  it('reads and writes the shown streams', () => {
    expect(parseStreams(undefined)).toHaveLength(5);
    expect(parseStreams('logs,traces,bogus')).toEqual(['logs', 'traces']);
    expect(parseStreams('none')).toEqual([]);
    expect(serializeStreams(parseStreams(undefined))).toBeUndefined();
    expect(serializeStreams([])).toBe('none');
    expect(serializeStreams(['traces', 'logs'])).toBe('logs,traces');
  });

  it('toggles a stream in the fixed order', () => {
    expect(toggleStream(['logs'], 'issues')).toEqual(['issues', 'logs']);
    expect(toggleStream(['issues', 'logs'], 'issues')).toEqual(['logs']);
  });
});
