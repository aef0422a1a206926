import { describe, expect, it } from 'vitest';
import {
  customTimeRange,
  DEFAULT_TIME_RANGE,
  fromDateTimeLocalUtc,
  isSinceValue,
  parseTimeRange,
  resolveTimeRange,
  serializeTimeRange,
  timeRangeLabel,
  toDateTimeLocalUtc,
  toRfc3339Since,
} from './time-range';

const now = Date.parse('2025-05-04T12:00:00.000Z');

describe('parseTimeRange', () => {
  it('defaults to the last 24 hours', () => {
    expect(parseTimeRange({})).toEqual(DEFAULT_TIME_RANGE);
    expect(DEFAULT_TIME_RANGE).toEqual({ kind: 'relative', amount: 24, unit: 'h' });
  });

  it('reads compact durations', () => {
    expect(parseTimeRange({ since: '7d' })).toEqual({ kind: 'relative', amount: 7, unit: 'd' });
    expect(parseTimeRange({ since: '1h' })).toEqual({ kind: 'relative', amount: 1, unit: 'h' });
  });

  it('reads an absolute range and normalizes it to UTC', () => {
    expect(
      parseTimeRange({ since: '2025-05-03T10:00:00+02:00', until: '2025-05-04T00:00:00Z' }),
    ).toEqual({
      kind: 'absolute',
      since: '2025-05-03T08:00:00.000Z',
      until: '2025-05-04T00:00:00.000Z',
    });
    expect(parseTimeRange({ since: '2025-05-03T10:00:00Z' })).toEqual({
      kind: 'absolute',
      since: '2025-05-03T10:00:00.000Z',
      until: undefined,
    });
  });

  it('falls back to the default for values that do not make a range', () => {
    for (const search of [
      { since: '0h' },
      { since: '24' },
      { since: '2w' },
      { since: 'yesterday' },
      { since: '2025-13-40T00:00:00Z' },
      { since: '2025-05-03' },
      { until: '2025-05-03T00:00:00Z' },
      { since: '24h', until: '2025-05-03T00:00:00Z' },
      // until must be later than since
      { since: '2025-05-03T10:00:00Z', until: '2025-05-03T10:00:00Z' },
      { since: '2025-05-03T10:00:00Z', until: '2025-05-03T09:00:00Z' },
      { since: '2025-05-03T10:00:00Z', until: '7d' },
    ]) {
      expect(parseTimeRange(search), JSON.stringify(search)).toEqual(DEFAULT_TIME_RANGE);
    }
  });
});

describe('isSinceValue', () => {
  it('accepts compact durations and RFC3339 only', () => {
    expect(isSinceValue('24h')).toBe(true);
    expect(isSinceValue('2025-05-03T10:00:00.123Z')).toBe(true);
    expect(isSinceValue('-1h')).toBe(false);
    expect(isSinceValue('24 h')).toBe(false);
  });
});

describe('toRfc3339Since', () => {
  it('turns a relative range into one RFC3339 timestamp at the given time', () => {
    expect(toRfc3339Since({ kind: 'relative', amount: 24, unit: 'h' }, now)).toBe(
      '2025-05-03T12:00:00.000Z',
    );
    expect(toRfc3339Since({ kind: 'relative', amount: 7, unit: 'd' }, new Date(now))).toBe(
      '2025-04-27T12:00:00.000Z',
    );
  });

  it('keeps an absolute since', () => {
    const range = parseTimeRange({ since: '2025-05-01T00:00:00Z' });
    expect(toRfc3339Since(range, now)).toBe('2025-05-01T00:00:00.000Z');
  });
});

describe('resolveTimeRange', () => {
  it('computes since once, so every page of a read uses the same value', () => {
    const range = parseTimeRange({ since: '1h' });
    const resolved = resolveTimeRange(range, now);
    expect(resolved).toEqual({ since: '2025-05-04T11:00:00.000Z' });
    // A later page reuses `resolved`, not a new computation.
    expect(resolveTimeRange(range, now + 60_000).since).not.toBe(resolved.since);
  });

  it('carries until for an absolute range, and until is after since', () => {
    const resolved = resolveTimeRange(
      parseTimeRange({ since: '2025-05-01T00:00:00Z', until: '2025-05-02T00:00:00Z' }),
      now,
    );
    expect(resolved).toEqual({
      since: '2025-05-01T00:00:00.000Z',
      until: '2025-05-02T00:00:00.000Z',
    });
    expect(Date.parse(resolved.until ?? '')).toBeGreaterThan(Date.parse(resolved.since));
  });
});

describe('serializeTimeRange', () => {
  it('omits the default and writes compact or RFC3339 values', () => {
    expect(serializeTimeRange(DEFAULT_TIME_RANGE)).toEqual({});
    expect(serializeTimeRange({ kind: 'relative', amount: 7, unit: 'd' })).toEqual({ since: '7d' });
    expect(
      serializeTimeRange({
        kind: 'absolute',
        since: '2025-05-01T00:00:00.000Z',
        until: '2025-05-02T00:00:00.000Z',
      }),
    ).toEqual({ since: '2025-05-01T00:00:00.000Z', until: '2025-05-02T00:00:00.000Z' });
  });

  it('round-trips through parseTimeRange', () => {
    for (const since of ['1h', '24h', '7d', '14d', '30d', '2025-05-01T00:00:00.000Z']) {
      const range = parseTimeRange({ since });
      expect(parseTimeRange(serializeTimeRange(range))).toEqual(range);
    }
  });
});

describe('labels', () => {
  it('names presets and custom ranges', () => {
    expect(timeRangeLabel({ kind: 'relative', amount: 1, unit: 'h' })).toBe('Last hour');
    expect(timeRangeLabel({ kind: 'relative', amount: 24, unit: 'h' })).toBe('Last 24 hours');
    expect(timeRangeLabel({ kind: 'relative', amount: 14, unit: 'd' })).toBe('Last 14 days');
    expect(
      timeRangeLabel({
        kind: 'absolute',
        since: '2025-05-03T14:05:00.000Z',
        until: '2025-05-04T09:00:00.000Z',
      }),
    ).toBe('3 May 14:05 – 4 May 09:00 UTC');
    expect(
      timeRangeLabel({ kind: 'absolute', since: '2025-05-03T14:05:00.000Z', until: undefined }),
    ).toBe('3 May 14:05 – now UTC');
  });
});

describe('datetime-local in UTC', () => {
  it('converts both ways', () => {
    expect(toDateTimeLocalUtc('2025-05-03T14:05:59.000Z')).toBe('2025-05-03T14:05');
    expect(fromDateTimeLocalUtc('2025-05-03T14:05')).toBe('2025-05-03T14:05:00.000Z');
    expect(fromDateTimeLocalUtc('2025-05-03T14:05:30')).toBe('2025-05-03T14:05:30.000Z');
    expect(fromDateTimeLocalUtc('2025-02-30T10:00')).toBeNull();
    expect(fromDateTimeLocalUtc('')).toBeNull();
  });

  it('checks a custom range: until must be after since', () => {
    expect(customTimeRange('2025-05-03T10:00', '2025-05-03T12:00')).toEqual({
      ok: true,
      range: {
        kind: 'absolute',
        since: '2025-05-03T10:00:00.000Z',
        until: '2025-05-03T12:00:00.000Z',
      },
    });
    expect(customTimeRange('2025-05-03T10:00', '')).toEqual({
      ok: true,
      range: { kind: 'absolute', since: '2025-05-03T10:00:00.000Z', until: undefined },
    });
    expect(customTimeRange('2025-05-03T10:00', '2025-05-03T10:00').ok).toBe(false);
    expect(customTimeRange('2025-05-03T10:00', '2025-05-03T09:00').ok).toBe(false);
    expect(customTimeRange('', '2025-05-03T09:00').ok).toBe(false);
  });
});
