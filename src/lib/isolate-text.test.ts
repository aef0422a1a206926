import { describe, expect, it } from 'vitest';
import { isolateText } from './isolate-text';

describe('isolateText', () => {
  it('keeps the text and closes what an override in it opened, before the words after it', () => {
    const name = 'report\u202Efdp.exe';
    const option = `${isolateText(name)} — gauge`;
    expect(option).toBe('\u2068report\u202Efdp.exe\u2069 — gauge');
    // The pop comes before the console's own words, so they stay outside the override.
    expect(option.indexOf('\u2069')).toBeLessThan(option.indexOf(' — gauge'));
  });
});
