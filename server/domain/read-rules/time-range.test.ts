import { describe, expect, it } from 'vitest';
import { parseRfc3339, parseTimeRange } from './time-range';

const NOW = Date.parse('2025-03-03T09:00:00.000Z');

describe('parseRfc3339', () => {
  it('accepts UTC and offsets, with or without fractions', () => {
    expect(parseRfc3339('2025-03-03T08:00:00Z')).toBe(Date.parse('2025-03-03T08:00:00Z'));
    expect(parseRfc3339('2025-03-03T10:00:00.250+02:00')).toBe(
      Date.parse('2025-03-03T08:00:00.250Z'),
    );
  });
  it('rejects other shapes and impossible dates', () => {
    for (const v of [
      '2025-03-03',
      '2025-03-03T08:00:00',
      '2025-02-30T00:00:00Z',
      '2025-03-03T24:00:00Z',
      '1741000000000',
      '2025-03-03T08:00:00+2:00',
    ])
      expect(parseRfc3339(v), v).toBeNull();
  });
});

describe('parseTimeRange', () => {
  it('computes relative since from the request time', () => {
    expect(parseTimeRange({ since: '24h' }, NOW).since).toBe(NOW - 24 * 3_600_000);
    expect(parseTimeRange({ since: '7d' }, NOW).since).toBe(NOW - 7 * 86_400_000);
  });
  it('reads RFC3339 since and until', () => {
    expect(
      parseTimeRange({ since: '2025-03-03T08:00:00Z', until: '2025-03-03T08:00:00.001Z' }, NOW),
    ).toEqual({ since: NOW - 3_600_000, until: NOW - 3_600_000 + 1 });
    expect(parseTimeRange({}, NOW)).toEqual({ since: null, until: null });
  });
  it('rejects bad values and an until not later than since', () => {
    const bad = [
      { since: '0h' },
      { since: '-1d' },
      { since: '1.5h' },
      { since: '24m' },
      { until: '24h' },
      { since: '2025-03-03T08:00:00Z', until: '2025-03-03T08:00:00.000Z' },
      { since: '2025-03-03T08:00:00Z', until: '2025-03-03T07:00:00Z' },
    ];
    for (const q of bad) expect(() => parseTimeRange(q, NOW), JSON.stringify(q)).toThrow();
  });
});
