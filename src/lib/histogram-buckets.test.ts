import { describe, expect, it } from 'vitest';
import { histogramBuckets } from './histogram-buckets';

const H = 3_600_000;
/** The bucket size the service makes of a request (its rule: whole hours, ceil). */
const serviceBarHours = (since: number, until: number, buckets: number) =>
  Math.ceil((Math.ceil(until / H) - Math.floor(since / H)) / buckets);

describe('histogramBuckets', () => {
  it('gives one-hour bars for a day that starts mid-hour', () => {
    const until = Date.parse('2026-11-22T17:20:00Z');
    const since = until - 24 * H;
    const buckets = histogramBuckets(since, until);
    expect(buckets).toBe(25);
    expect(serviceBarHours(since, until, buckets)).toBe(1);
  });

  it('gives seven-hour bars for a week and stays within 100 buckets', () => {
    const until = Date.parse('2026-11-22T17:20:00Z');
    const since = until - 7 * 24 * H;
    const buckets = histogramBuckets(since, until);
    expect(serviceBarHours(since, until, buckets)).toBe(7);
    expect(buckets).toBeLessThanOrEqual(100);
  });

  it('gives at least one bucket for a range inside one hour', () => {
    const since = Date.parse('2026-11-22T17:05:00Z');
    expect(histogramBuckets(since, since + 10 * 60_000)).toBe(1);
  });
});
