import { describe, expect, it } from 'vitest';
import { formatUtcDate, formatUtcDateTime, formatUtcTime } from './format-time';

describe('format-time', () => {
  it('formats in UTC', () => {
    expect(formatUtcDate('2025-05-03T23:30:00+02:00')).toBe('2025-05-03');
    expect(formatUtcDateTime('2025-05-03T14:05:09.123Z')).toBe('3 May 2025, 14:05:09 UTC');
    expect(formatUtcDateTime('2025-05-03T14:05:09.123Z', { ms: true })).toBe(
      '3 May 2025, 14:05:09.123 UTC',
    );
    expect(formatUtcTime('2025-05-03T23:30:05+02:00')).toBe('21:30:05 UTC');
  });

  it('shows unreadable input as it came', () => {
    expect(formatUtcDate('soon')).toBe('soon');
    expect(formatUtcDateTime('soon')).toBe('soon');
    expect(formatUtcTime('soon')).toBe('soon');
  });
});
