import { describe, expect, it } from 'vitest';
import { isolateText } from './isolate-text';

describe('isolateText', () => {
  it('shows an override as a token and isolates the text before the words after it', () => {
    const name = 'report\u202Efdp.exe';
    const option = `${isolateText(name)} — gauge`;
    expect(option).toBe('\u2068report⟨RLO⟩fdp.exe\u2069 — gauge');
    expect(option).not.toContain('\u202E');
    // The pop comes before the console's own words, so they stay outside the isolate.
    expect(option.indexOf('\u2069')).toBeLessThan(option.indexOf(' — gauge'));
  });
});
