import { describe, expect, it } from 'vitest';
import {
  autoInterval,
  bucketCount,
  bucketWords,
  chartWindowOf,
  checkWindow,
  isIntervalChoice,
} from './series-window';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const at = Date.parse('2026-11-20T12:00:00.000Z');

describe('bucketCount', () => {
  it('counts whole intervals after flooring since and ceiling until', () => {
    expect(bucketCount(at, at + HOUR, '1m')).toBe(60);
    // 12:00:30 to 13:00:30 spans 61 whole minutes.
    expect(bucketCount(at + 30_000, at + HOUR + 30_000, '1m')).toBe(61);
    expect(bucketCount(at, at + DAY, '1h')).toBe(24);
  });
});

describe('autoInterval', () => {
  it('is the smallest interval giving at most 200 buckets', () => {
    expect(autoInterval(at, at + HOUR)).toBe('1m');
    expect(autoInterval(at, at + DAY)).toBe('15m');
    expect(autoInterval(at, at + 7 * DAY)).toBe('1h');
    expect(autoInterval(at, at + 30 * DAY)).toBe('6h');
  });
});

describe('checkWindow', () => {
  it('accepts a window within the limits and names the interval used', () => {
    expect(checkWindow(at, at + DAY, 'auto')).toEqual({ ok: true, interval: '15m', buckets: 96 });
    expect(checkWindow(at, at + DAY, '5m')).toEqual({ ok: true, interval: '5m', buckets: 288 });
  });

  it('explains an interval giving more than 500 buckets, with what to choose instead', () => {
    const check = checkWindow(at, at + DAY, '1m');
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.reason).toBe('buckets');
    expect(check.message).toContain('1,440');
    expect(check.message).toContain('at most 500');
    expect(check.message).toContain('5 minutes or longer');
  });

  it('explains a range over 31 days before the interval', () => {
    const check = checkWindow(at, at + 32 * DAY, 'auto');
    expect(check).toMatchObject({ ok: false, reason: 'range' });
  });

  it('accepts exactly 31 days', () => {
    expect(checkWindow(at, at + 31 * DAY, '1d').ok).toBe(true);
  });
});

describe('isIntervalChoice', () => {
  it('knows the service intervals', () => {
    expect(isIntervalChoice('auto')).toBe(true);
    expect(isIntervalChoice('6h')).toBe(true);
    expect(isIntervalChoice('2h')).toBe(false);
  });
});

describe('chartWindowOf', () => {
  it('keeps a relative range compact, with its bounds at now and the window it makes', () => {
    expect(chartWindowOf({ since: '24h' }, 'auto', at)).toEqual({
      range: { since: '24h' },
      bounds: { since: at - DAY, until: at },
      window: { ok: true, interval: '15m', buckets: 96 },
    });
  });

  it('picks a coarser fixed interval for a compact chart', () => {
    const interval = (since: string) => {
      const plan = chartWindowOf({ since }, 'compact', at);
      return plan.window.ok ? [plan.window.interval, plan.window.buckets] : null;
    };
    expect(interval('1h')).toEqual(['1m', 60]);
    expect(interval('24h')).toEqual(['1h', 24]);
    expect(interval('7d')).toEqual(['6h', 28]);
    expect(interval('30d')).toEqual(['1d', 31]);
  });

  it('refuses a range longer than 31 days before anything is sent', () => {
    const since = new Date(at - 40 * DAY).toISOString();
    const plan = chartWindowOf({ since }, 'auto', at);
    expect(plan.range).toEqual({ since });
    expect(plan.window).toMatchObject({ ok: false, reason: 'range' });
  });
});

describe('bucketWords', () => {
  it('writes bucket lengths as adjectives', () => {
    expect(bucketWords('1m')).toBe('1-minute');
    expect(bucketWords('6h')).toBe('6-hour');
    expect(bucketWords('1d')).toBe('1-day');
  });
});
