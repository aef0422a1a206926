import { describe, expect, it } from 'vitest';
import { formatUtcTick, utcTimeTicks } from './time-ticks';

const HOUR = 3_600_000;
const at = Date.parse('2026-11-20T00:00:00.000Z');

describe('utcTimeTicks', () => {
  it('picks the smallest round step giving at most the asked number of ticks', () => {
    expect(utcTimeTicks(at, at + 6 * HOUR)).toEqual(
      [0, 1, 2, 3, 4, 5, 6].map((h) => at + h * HOUR),
    );
  });

  it('starts at the first multiple of the step inside the range', () => {
    const ticks = utcTimeTicks(at + 10 * 60_000, at + 6 * HOUR);
    expect(ticks[0]).toBe(at + HOUR);
  });

  it('gives one tick for an empty range', () => {
    expect(utcTimeTicks(at, at)).toEqual([at]);
  });
});

describe('formatUtcTick', () => {
  it('writes times of day on short axes and dates on long ones', () => {
    expect(formatUtcTick(at + 14 * HOUR + 5 * 60_000, 24 * HOUR)).toBe('14:05');
    expect(formatUtcTick(at, 24 * HOUR)).toBe('20 Nov');
    expect(formatUtcTick(at + 14 * HOUR, 7 * 24 * HOUR)).toBe('20 Nov');
  });
});
