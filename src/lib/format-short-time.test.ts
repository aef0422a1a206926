import { describe, expect, it } from 'vitest';
import { formatShortUtc } from './format-short-time';

describe('formatShortUtc', () => {
  it('shows day, month and UTC minutes', () => {
    expect(formatShortUtc('2026-11-20T14:03:59.999Z')).toBe('20 Nov 14:03');
    expect(formatShortUtc('2026-01-02T00:00:00+02:00')).toBe('1 Jan 22:00');
    expect(formatShortUtc('nope')).toBe('nope');
  });
});
