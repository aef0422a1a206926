import { describe, expect, it } from 'vitest';
import { incidentDuration, valueAgainstThreshold, windowLength } from './incident-text';

describe('valueAgainstThreshold', () => {
  it('shows the comparison that fired', () => {
    expect(valueAgainstThreshold(1234, 1000, 'above')).toBe('1,234 > 1,000');
    expect(valueAgainstThreshold(0.5, 2, 'below')).toBe('0.5 < 2');
    expect(valueAgainstThreshold(1, null, 'above')).toBe('1');
  });
});

describe('incidentDuration', () => {
  const started_at = '2026-11-26T10:00:00Z';
  it('measures to the resolution, or to now while firing', () => {
    expect(incidentDuration({ started_at, resolved_at: '2026-11-26T10:12:00Z' }, 0)).toBe('12 min');
    expect(
      incidentDuration({ started_at, resolved_at: null }, Date.parse('2026-11-26T13:05:00Z')),
    ).toBe('3 h 5 min');
  });
});

describe('windowLength', () => {
  it('says the window in minutes, hours or days', () => {
    const w = (start: string, end: string) =>
      windowLength({ window_start: start, window_end: end });
    expect(w('2026-11-26T10:00:00Z', '2026-11-26T10:15:00Z')).toBe('15 min');
    expect(w('2026-11-26T10:00:00Z', '2026-11-26T12:00:00Z')).toBe('2 h');
    expect(w('2026-11-25T10:00:00Z', '2026-11-26T10:00:00Z')).toBe('1 day');
  });
});
