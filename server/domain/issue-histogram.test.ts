import { describe, expect, it } from 'vitest';
import { HOUR_MS, bucketCounts, histogramWindow, parseBuckets } from './issue-histogram';

const T = Date.parse('2025-03-03T08:00:00.000Z');
const H = T / HOUR_MS;

describe('histogramWindow', () => {
  it('widens to whole hours: since floored, until ceiled', () => {
    const w = histogramWindow(T + 15 * 60_000, T + 3 * HOUR_MS + 1, 24);
    expect(w).toEqual({ fromHour: H, toHour: H + 4, bucketHours: 1, bucketCount: 4 });
  });

  it('makes buckets of ceil(hours / buckets) hours; the last may be shorter', () => {
    expect(histogramWindow(T, T + 7 * 24 * HOUR_MS, 24)).toEqual({
      fromHour: H,
      toHour: H + 168,
      bucketHours: 7,
      bucketCount: 24,
    });
    expect(histogramWindow(T, T + 25 * HOUR_MS, 24)).toMatchObject({
      bucketHours: 2,
      bucketCount: 13,
    });
  });

  it('keeps one hour when since and until fall in the same hour boundary', () => {
    expect(histogramWindow(T, T + 1, 24)).toMatchObject({ toHour: H + 1, bucketCount: 1 });
  });
});

describe('bucketCounts', () => {
  it('sums hours into their buckets and ignores hours outside the window', () => {
    const w = histogramWindow(T, T + 6 * HOUR_MS, 3);
    const counts = bucketCounts(
      [
        { issueId: 'a', hour: H, occurrences: 2 },
        { issueId: 'a', hour: H + 1, occurrences: 1 },
        { issueId: 'a', hour: H + 5, occurrences: 4 },
        { issueId: 'a', hour: H + 6, occurrences: 9 },
        { issueId: 'b', hour: H - 1, occurrences: 9 },
      ],
      w,
    );
    expect(counts.get('a')).toEqual([3, 0, 4]);
    expect(counts.has('b')).toBe(false);
  });
});

describe('parseBuckets', () => {
  it('defaults to 24 and takes 1 to 100', () => {
    expect(parseBuckets(undefined)).toBe(24);
    expect(parseBuckets('1')).toBe(1);
    expect(parseBuckets('100')).toBe(100);
    for (const bad of ['0', '101', 'abc', '', '1.5', '-1', '+5', '0x10'])
      expect(() => parseBuckets(bad)).toThrow('buckets must be an integer from 1 to 100');
  });
});
