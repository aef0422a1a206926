import { describe, expect, it } from 'vitest';
import type { IssueHistograms } from '../../api/queries/issues';
import { bucketRangeText, issueDeploymentScope, issueTrend, trendLabel } from './issue-trend-data';

const ID = '00000000-0000-4000-8000-0000000000aa';
const OTHER = '00000000-0000-4000-8000-0000000000bb';
const H = 3_600_000;
const T0 = Date.parse('2026-11-25T22:00:00.000Z');

const answer = (counts: number[], over: Partial<IssueHistograms> = {}): IssueHistograms => ({
  since: new Date(T0).toISOString(),
  until: new Date(T0 + counts.length * H).toISOString(),
  bucket_seconds: 3600,
  issues: [
    { issue_id: OTHER, counts: counts.map(() => 9) },
    { issue_id: ID, counts },
  ],
  ...over,
});

describe('issueTrend', () => {
  it('makes one bar per bucket of this issue, drawn at the middle of its bucket', () => {
    const trend = issueTrend(answer([0, 3, 1]), ID);
    expect(trend.bars).toEqual([
      { x: T0 + H / 2, start: T0, end: T0 + H, count: 0 },
      { x: T0 + 1.5 * H, start: T0 + H, end: T0 + 2 * H, count: 3 },
      { x: T0 + 2.5 * H, start: T0 + 2 * H, end: T0 + 3 * H, count: 1 },
    ]);
    expect(trend.domain).toEqual([T0, T0 + 3 * H]);
    expect([trend.total, trend.peak]).toEqual([4, 3]);
    expect([trend.since, trend.until]).toEqual([
      '2026-11-25T22:00:00.000Z',
      '2026-11-26T01:00:00.000Z',
    ]);
  });

  it('keeps a short last bucket whole on the axis and says its real end', () => {
    // 5 hours in 2-hour buckets: the last one is 1 hour long.
    const trend = issueTrend(
      answer([1, 2, 3], {
        bucket_seconds: 7200,
        until: new Date(T0 + 5 * H).toISOString(),
      }),
      ID,
    );
    expect(trend.bars.map((b) => b.x)).toEqual([T0 + H, T0 + 3 * H, T0 + 5 * H]);
    expect(trend.bars.at(-1)).toMatchObject({ start: T0 + 4 * H, end: T0 + 5 * H });
    expect(trend.domain).toEqual([T0, T0 + 6 * H]);
  });

  it('has no events when the issue is not in the answer', () => {
    const trend = issueTrend(answer([1, 2]), '00000000-0000-4000-8000-0000000000cc');
    expect(trend.bars).toEqual([]);
    expect(trend.total).toBe(0);
  });
});

describe('words', () => {
  it('writes a bucket with its UTC times, both dates across midnight', () => {
    expect(bucketRangeText(T0 - 2 * H, T0 - H)).toBe('25 Nov 20:00–21:00 UTC');
    expect(bucketRangeText(T0, T0 + 2 * H)).toBe('25 Nov 22:00–26 Nov 00:00 UTC');
  });

  it('summarises the chart for assistive technology', () => {
    expect(trendLabel(issueTrend(answer([0, 3, 1]), ID), 'last 24 hours')).toBe(
      'Events of this issue, last 24 hours, bars per hour: 4 events, at most 3 per hour',
    );
    expect(trendLabel(issueTrend(answer([0, 0]), ID), 'last 24 hours')).toBe(
      'Events of this issue, last 24 hours, bars per hour: none',
    );
  });
});

describe('issueDeploymentScope', () => {
  it('marks the deployments of the service that threw, to its environment, any release', () => {
    expect(
      issueDeploymentScope({
        project_id: 'p1',
        service_name: 'checkout-api',
        environment: 'production',
      }),
    ).toEqual({ projectIds: ['p1'], serviceName: 'checkout-api', environment: 'production' });
  });
});
