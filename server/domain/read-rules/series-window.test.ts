import { describe, expect, it } from 'vitest';
import { parseSeriesWindow, parseVersionOne } from './series-window';

const NOW = Date.parse('2025-03-03T09:10:00.000Z');
const ok = (q: Record<string, string>, futureUntil = true) =>
  parseSeriesWindow(q, NOW, { futureUntil });

describe('parseSeriesWindow', () => {
  it('defaults until to now and auto to the smallest interval with at most 200 buckets', () => {
    expect(ok({ since: '1h' })).toMatchObject({ interval: '1m', bucketCount: 60, until: NOW });
    expect(ok({ since: '24h' })).toMatchObject({ interval: '15m', bucketCount: 97 });
    expect(ok({ since: '7d' })).toMatchObject({ interval: '1h', bucketCount: 169 });
    expect(ok({ since: '31d' })).toMatchObject({ interval: '6h', bucketCount: 125 });
  });
  it('widens the range to whole intervals from the epoch', () => {
    const w = ok({ since: '2025-03-03T08:07:00Z', until: '2025-03-03T09:01:00Z', interval: '15m' });
    expect(new Date(w.from).toISOString()).toBe('2025-03-03T08:00:00.000Z');
    expect(new Date(w.to).toISOString()).toBe('2025-03-03T09:15:00.000Z');
    expect(w.bucketCount).toBe(5);
  });
  it('refuses a missing since, a long range, too many buckets and unknown intervals', () => {
    expect(() => ok({})).toThrow('since is required');
    expect(() => ok({ since: '32d' })).toThrow('at most 31 days');
    expect(() => ok({ since: '31d' })).not.toThrow();
    expect(() => ok({ since: '24h', interval: '1m' })).toThrow('at most 500');
    expect(() => ok({ since: '8h', interval: '1m' })).not.toThrow();
    expect(() => ok({ since: '24h', interval: '2m' })).toThrow('interval must be');
  });
  it('refuses an until in the future only when asked to', () => {
    const until = '2025-03-03T10:00:00Z';
    expect(() => ok({ since: '1h', until }, false)).toThrow('until must not be in the future');
    expect(ok({ since: '1h', until }).until).toBe(Date.parse(until));
  });
});

describe('parseVersionOne', () => {
  it('accepts 1 or nothing', () => {
    expect(parseVersionOne(undefined)).toBe(1);
    expect(parseVersionOne('1')).toBe(1);
    expect(() => parseVersionOne('2')).toThrow('response_version must be 1');
  });
});
