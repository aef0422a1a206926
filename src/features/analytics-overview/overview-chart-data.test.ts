import { describe, expect, it } from 'vitest';
import type { AnalyticsOverview } from '../../api/queries/analytics';
import { actionsChartData, bucketWords } from './overview-chart-data';

const overview = (buckets: string[], perBucket: number[]): AnalyticsOverview => ({
  schema_version: 1,
  project_id: '11111111-1111-4111-8111-111111111111',
  since: buckets[0] ?? '2026-11-22T00:00:00.000Z',
  until: '2026-11-22T12:00:00.000Z',
  filters: { service_name: null, release: null, environment: null },
  interval: '1h',
  bucket_seconds: 3600,
  buckets,
  totals: { events: 0, users: 0, sessions: 0, events_per_bucket: perBucket },
  top_actions: [],
  truncated_actions: false,
  coverage: {
    events: 0,
    named_events: 0,
    session_events: 0,
    event_name_rate: 0,
    session_rate: 0,
    limitations: [],
  },
});

describe('actionsChartData', () => {
  it('gives a bar per bucket, the peak and ticks within the buckets', () => {
    const data = actionsChartData(
      overview(
        ['2026-11-22T00:00:00.000Z', '2026-11-22T01:00:00.000Z', '2026-11-22T02:00:00.000Z'],
        [4, 0, 9],
      ),
    );
    expect(data.rows.map((r) => r.events)).toEqual([4, 0, 9]);
    expect(data.peak).toBe(9);
    expect(data.span).toBe(3 * 3_600_000);
    expect(data.domain).toEqual([
      Date.parse('2026-11-21T23:30:00.000Z'),
      Date.parse('2026-11-22T02:30:00.000Z'),
    ]);
    expect(data.ticks.every((t) => t >= data.rows[0]!.x && t <= data.rows[2]!.x)).toBe(true);
  });

  it('reads a missing count as 0 and survives no buckets', () => {
    expect(actionsChartData(overview(['2026-11-22T00:00:00.000Z'], [])).rows).toEqual([
      { x: Date.parse('2026-11-22T00:00:00.000Z'), events: 0 },
    ]);
    expect(actionsChartData(overview([], [])).peak).toBe(0);
  });

  it('names the bucket', () => {
    expect(bucketWords('15m')).toBe('15-minute bucket');
  });
});
