import { describe, expect, it } from 'vitest';
import { incidentDuration, valueAgainstThreshold } from './incident-text';

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
