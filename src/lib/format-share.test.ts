import { describe, expect, it } from 'vitest';
import { formatBasisPoints, formatPointChange } from './format-share';

describe('formatBasisPoints', () => {
  it('shows one decimal, keeps tiny shares visible and never rounds to 100%', () => {
    expect(formatBasisPoints(0)).toBe('0%');
    expect(formatBasisPoints(320)).toBe('3.2%');
    expect(formatBasisPoints(1)).toBe('0.01%');
    expect(formatBasisPoints(9999)).toBe('99.99%');
    expect(formatBasisPoints(10000)).toBe('100%');
    expect(formatBasisPoints(5000)).toBe('50.0%');
  });
});

describe('formatPointChange', () => {
  it('signs the change in percentage points', () => {
    expect(formatPointChange(1.44)).toBe('+1.4 pp');
    expect(formatPointChange(-0.3)).toBe('−0.3 pp');
    expect(formatPointChange(0)).toBe('±0 pp');
    expect(formatPointChange(0.01)).toBe('+<0.1 pp');
    expect(formatPointChange(-0.04)).toBe('−<0.1 pp');
  });
});
