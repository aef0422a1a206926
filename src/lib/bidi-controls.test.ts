import { describe, expect, it } from 'vitest';
import { hasBidiControls, markBidiControls, splitBidiControls } from './bidi-controls';

describe('bidi controls', () => {
  it('finds every control: embeddings, overrides, isolates and marks', () => {
    for (const c of [
      '\u202A',
      '\u202B',
      '\u202C',
      '\u202D',
      '\u202E',
      '\u2066',
      '\u2067',
      '\u2068',
      '\u2069',
      '\u200E',
      '\u200F',
      '\u061C',
    ])
      expect(hasBidiControls(`a${c}b`), c.codePointAt(0)?.toString(16)).toBe(true);
    expect(hasBidiControls('plain עברית text')).toBe(false);
  });

  it('splits text around controls, in order', () => {
    expect(splitBidiControls('report\u202Efdp.exe')).toEqual([
      { text: 'report' },
      {
        control: {
          char: '\u202E',
          short: 'RLO',
          name: 'RIGHT-TO-LEFT OVERRIDE',
          codePoint: 'U+202E',
        },
      },
      { text: 'fdp.exe' },
    ]);
    expect(
      splitBidiControls('\u2066\u2069').map((p) => ('control' in p ? p.control.short : p.text)),
    ).toEqual(['LRI', 'PDI']);
    expect(splitBidiControls('none')).toEqual([{ text: 'none' }]);
  });

  it('marks controls with visible tokens in plain text', () => {
    expect(markBidiControls('report\u202Efdp.exe')).toBe('report⟨RLO⟩fdp.exe');
    expect(markBidiControls('a\u200Fb\u061Cc')).toBe('a⟨RLM⟩b⟨ALM⟩c');
    const same = 'no controls';
    expect(markBidiControls(same)).toBe(same);
  });
});
