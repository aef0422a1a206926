import { describe, expect, it } from 'vitest';
import { formatBytes, formatCompactCount } from './format-bytes';

describe('formatBytes', () => {
  it('counts in powers of 1,024 with up to three significant digits', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(20 * 1024 * 1024)).toBe('20 MiB');
    expect(formatBytes(1.25 * 1024 ** 3)).toBe('1.25 GiB');
  });

  it('never rounds into 1024 of a unit', () => {
    expect(formatBytes(1024 * 1024 - 1)).toBe('1 MiB');
  });

  it('shows a dash for what is not a count', () => {
    expect(formatBytes(-1)).toBe('–');
    expect(formatBytes(Number.NaN)).toBe('–');
  });
});

describe('formatCompactCount', () => {
  it('abbreviates thousands and millions', () => {
    expect(formatCompactCount(950)).toBe('950');
    expect(formatCompactCount(12_000)).toBe('12k');
    expect(formatCompactCount(1_234_567)).toBe('1.23M');
    expect(formatCompactCount(999_999)).toBe('1M');
    expect(formatCompactCount(2.5)).toBe('2.5');
    expect(formatCompactCount(-1500)).toBe('-1.5k');
  });
});
