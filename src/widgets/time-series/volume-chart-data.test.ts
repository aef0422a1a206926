import { describe, expect, it } from 'vitest';
import type { VolumeSummary } from '../../api/queries/metrics';
import { streamLines, streamTotalsText, volumeChartData } from './volume-chart-data';

const B0 = '2026-11-20T12:00:00.000Z';
const B1 = '2026-11-20T12:15:00.000Z';
const B2 = '2026-11-20T12:30:00.000Z';

const volume = (events: number[], bytes: number[]): VolumeSummary => {
  const stream = { events, bytes };
  const zero = { events: events.map(() => 0), bytes: bytes.map(() => 0) };
  return {
    schema_version: 1,
    interval: '15m',
    bucket_seconds: 900,
    since: B0,
    until: B2,
    buckets: [B0, B1],
    streams: { issues: zero, logs: stream, traces: zero, actions: zero, metrics: zero },
  };
};

describe('volumeChartData', () => {
  it('keeps events and bytes in separate rows, for the shown streams only', () => {
    const data = volumeChartData(volume([3, 4], [300, 400]), ['logs']);
    expect(data.events).toEqual([
      { x: Date.parse(B0), logs: 3 },
      { x: Date.parse(B1), logs: 4 },
    ]);
    expect(data.bytes[1]).toEqual({ x: Date.parse(B1), logs: 400 });
    expect(data.totals.logs).toEqual({ events: 7, bytes: 700 });
    expect(data.streamsWithBytes).toEqual(['logs']);
    expect(data.axis.domain).toEqual([Date.parse(B0), Date.parse(B2)]);
  });
});

describe('stream lines and words', () => {
  it('draws the shown streams in the fixed order, each in its own colour', () => {
    expect(streamLines(['traces', 'issues']).map((l) => [l.dataKey, l.label, l.color])).toEqual([
      ['issues', 'Issue events', 5],
      ['traces', 'Spans', 1],
    ]);
  });

  it('says the totals of the shown streams', () => {
    const { totals } = volumeChartData(volume([3, 4], [0, 0]), ['logs', 'issues']);
    expect(streamTotalsText(totals, ['logs', 'issues'])).toBe('Issue events 0, Logs 7');
  });
});
