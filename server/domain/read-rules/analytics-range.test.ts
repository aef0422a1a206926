import { describe, expect, it } from 'vitest';
import { analyticsFilter, parseAnalyticsRange } from './analytics-range';

const NOW = Date.parse('2025-03-03T09:00:00Z');

describe('parseAnalyticsRange', () => {
  it('defaults until to now and reads relative since', () => {
    expect(parseAnalyticsRange({ since: '24h' }, NOW)).toEqual({
      since: NOW - 86_400_000,
      until: NOW,
    });
  });
  it('refuses a missing since, an until not after since and more than 31 days', () => {
    expect(() => parseAnalyticsRange({}, NOW)).toThrow('since is required');
    expect(() =>
      parseAnalyticsRange({ since: '2025-03-03T09:00:00Z', until: '2025-03-03T09:00:00Z' }, NOW),
    ).toThrow('until must be later than since');
    expect(() => parseAnalyticsRange({ since: '32d' }, NOW)).toThrow('at most 31 days');
    expect(parseAnalyticsRange({ since: '31d' }, NOW).since).toBe(NOW - 31 * 86_400_000);
  });
});

describe('analyticsFilter', () => {
  it('trims and bounds the value', () => {
    expect(analyticsFilter('environment', undefined)).toBeNull();
    expect(analyticsFilter('environment', ' production ')).toBe('production');
    expect(() => analyticsFilter('environment', '   ')).toThrow('1 to 256');
    expect(() => analyticsFilter('release', 'x'.repeat(257))).toThrow('1 to 256');
    expect(analyticsFilter('release', ` ${'x'.repeat(256)} `)).toHaveLength(256);
  });
});
