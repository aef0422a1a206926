import { describe, expect, it } from 'vitest';
import { compactCount, coverageIsPartial, coverageSummary, searchedPercent } from './coverage';

const coverage = (total: number, partial: number, unindexed: number) => ({
  total_logs: total,
  indexed_logs: total - partial - unindexed,
  partially_indexed_logs: partial,
  unindexed_logs: unindexed,
  index_limits: { max_depth: 8, max_attributes_per_log: 128, max_string_bytes: 1024 },
});

describe('compactCount', () => {
  it('shortens without rounding up', () => {
    expect(compactCount(0)).toBe('0');
    expect(compactCount(980)).toBe('980');
    expect(compactCount(1000)).toBe('1K');
    expect(compactCount(12_345)).toBe('12.3K');
    expect(compactCount(999_999)).toBe('999K');
    expect(compactCount(1_234_567)).toBe('1.2M');
    expect(compactCount(2_000_000_000)).toBe('2B');
  });
});

describe('searchedPercent', () => {
  it('counts fully and partly indexed logs as searched, rounding down', () => {
    expect(searchedPercent(coverage(100, 10, 0))).toBe('100%');
    expect(searchedPercent(coverage(100, 0, 3))).toBe('97%');
    expect(searchedPercent(coverage(1_000_000, 0, 1))).toBe('99.9%');
    expect(searchedPercent(coverage(1000, 0, 995))).toBe('<1%');
    expect(searchedPercent(coverage(10, 0, 10))).toBe('0%');
    expect(searchedPercent(coverage(0, 0, 0))).toBe('100%');
  });
});

describe('coverageSummary', () => {
  it('reads as a sentence', () => {
    expect(coverageSummary(coverage(1_234_567, 0, 37_037))).toBe('Searched 97% of 1.2M logs');
    expect(coverageSummary(coverage(1, 0, 0))).toBe('Searched 100% of 1 log');
    expect(coverageSummary(coverage(0, 0, 0))).toBe('No logs in this range to search');
  });

  it('says when anything is left out', () => {
    expect(coverageIsPartial(coverage(10, 0, 0))).toBe(false);
    expect(coverageIsPartial(coverage(10, 1, 0))).toBe(true);
    expect(coverageIsPartial(coverage(10, 0, 1))).toBe(true);
  });
});
