import { describe, expect, it } from 'vitest';
import { formatDuration } from './format-duration';

describe('formatDuration', () => {
  it('shows microseconds below one millisecond', () => {
    expect(formatDuration(0.042)).toBe('42 µs');
    expect(formatDuration(0.0015)).toBe('1.5 µs');
    expect(formatDuration(0.5)).toBe('500 µs');
  });

  it('shows milliseconds, then seconds, minutes and hours', () => {
    expect(formatDuration(1)).toBe('1 ms');
    expect(formatDuration(1.5)).toBe('1.5 ms');
    expect(formatDuration(12.34)).toBe('12.3 ms');
    expect(formatDuration(123.4)).toBe('123 ms');
    expect(formatDuration(1234)).toBe('1.23 s');
    expect(formatDuration(42_000)).toBe('42 s');
    expect(formatDuration(125_000)).toBe('2 min 5 s');
    expect(formatDuration(120_000)).toBe('2 min');
    expect(formatDuration(3_840_000)).toBe('1 h 4 min');
    expect(formatDuration(7_200_000)).toBe('2 h');
  });

  it('never rounds into a wrong unit', () => {
    expect(formatDuration(0.9996)).toBe('1 ms');
    expect(formatDuration(999.7)).toBe('1 s');
    expect(formatDuration(59_999)).toBe('1 min');
  });

  it('shows zero and non-durations plainly', () => {
    expect(formatDuration(0)).toBe('0 ms');
    expect(formatDuration(-1)).toBe('–');
    expect(formatDuration(Number.NaN)).toBe('–');
  });
});
