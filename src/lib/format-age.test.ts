import { describe, expect, it } from 'vitest';
import { formatAge } from './format-age';

describe('formatAge', () => {
  it('says seconds while a read is fresh, then minutes and hours', () => {
    expect(formatAge(0)).toBe('just now');
    expect(formatAge(-2_000)).toBe('just now');
    expect(formatAge(4_999)).toBe('just now');
    expect(formatAge(12_400)).toBe('12 s ago');
    expect(formatAge(59_999)).toBe('59 s ago');
    expect(formatAge(60_000)).toBe('1 min ago');
    expect(formatAge(3_599_000)).toBe('59 min ago');
    expect(formatAge(7_300_000)).toBe('2 h ago');
  });
});
