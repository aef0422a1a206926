import { describe, expect, it } from 'vitest';
import { muteUntil } from './mute-choices';

describe('muteUntil', () => {
  it('is the chosen length after now, in UTC', () => {
    expect(muteUntil('60', Date.parse('2026-11-26T23:30:00Z'))).toBe('2026-11-27T00:30:00.000Z');
  });
});
