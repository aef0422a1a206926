import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromPgRows, fromPgText, toPgParams, toPgText } from './pg-text';

describe('text crossing PostgreSQL (no U+0000 in text)', () => {
  it('escapes U+0000 and the escape character, and only those', () => {
    expect(toPgText('a\u0000b')).toBe('a\uE000\uE001b');
    expect(toPgText('a\uE000b')).toBe('a\uE000\uE000b');
    expect(toPgText('plain é 🙂')).toBe('plain é 🙂');
    expect(toPgText('\u0000\uE001')).toBe('\uE000\uE001\uE001');
  });

  it('round-trips every string, one-to-one, and never sends U+0000', () => {
    const text = fc.string({ unit: fc.constantFrom('\u0000', '\uE000', '\uE001', 'a', 'é') });
    fc.assert(
      fc.property(text, text, (a, b) => {
        expect(toPgText(a)).not.toContain('\u0000');
        expect(fromPgText(toPgText(a))).toBe(a);
        expect(toPgText(a) === toPgText(b)).toBe(a === b);
        expect(toPgText(a + b).startsWith(toPgText(a))).toBe(true);
      }),
    );
  });

  it('escapes strings in parameters and arrays, and unescapes result columns', () => {
    expect(toPgParams(['\u0000', 3, null, ['x\u0000', 1]])).toEqual([
      '\uE000\uE001',
      3,
      null,
      ['x\uE000\uE001', 1],
    ]);
    expect(fromPgRows([{ a: '\uE000\uE001', b: 1, c: ['\uE000\uE000'], d: null }])).toEqual([
      { a: '\u0000', b: 1, c: ['\uE000'], d: null },
    ]);
  });
});
