import { describe, expect, it } from 'vitest';
import { jsonTextIsWellFormed, wellFormedText, wellFormedValue } from './well-formed';

describe('wellFormedText', () => {
  it('replaces each lone surrogate with U+FFFD and keeps pairs and other text', () => {
    expect(wellFormedText('a\uD800b')).toBe('a\uFFFDb');
    expect(wellFormedText('\uDC00x\uDBFF')).toBe('\uFFFDx\uFFFD');
    expect(wellFormedText('\uDC00\uD800')).toBe('\uFFFD\uFFFD');
    expect(wellFormedText('ok 😀 \uD83D\uDE00')).toBe('ok 😀 😀');
    const plain = 'nothing to do';
    expect(wellFormedText(plain)).toBe(plain);
  });
});

describe('wellFormedValue', () => {
  it('fixes keys and values at any depth and leaves unchanged parts as they were', () => {
    const untouched = { a: [1, 'b', { c: true }] };
    const input = {
      message: 'm\uD800',
      attributes: {
        'k\uDC00': 'v\uDBFF',
        nested: { list: ['x\uD800', 2], 'deep\uDC01': { z: '\uDFFF' } },
      },
      untouched,
    };
    const out = wellFormedValue(input);
    expect(out).toEqual({
      message: 'm\uFFFD',
      attributes: {
        'k\uFFFD': 'v\uFFFD',
        nested: { list: ['x\uFFFD', 2], 'deep\uFFFD': { z: '\uFFFD' } },
      },
      untouched,
    });
    expect(out.untouched).toBe(untouched);
    expect(wellFormedValue(untouched)).toBe(untouched);
  });

  it('keeps the later value when two keys become one, and keeps `__proto__` an own key', () => {
    expect(wellFormedValue({ 'a\uD800': 1, 'a\uDC00': 2 })).toEqual({ 'a\uFFFD': 2 });
    const parsed = JSON.parse('{"__proto__": {"polluted": true}, "x": "\\ud800"}') as object;
    const out = wellFormedValue(parsed) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out)).toEqual(['__proto__', 'x']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('stops at 1,000 levels instead of overflowing the stack (deeper bodies are refused)', () => {
    let deep: unknown = 'x\uD800';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(wellFormedValue(deep)).toBe(deep);
    let shallow: unknown = 'x\uD800';
    for (let i = 0; i < 500; i++) shallow = { a: shallow };
    expect(JSON.stringify(wellFormedValue(shallow))).toContain('x\uFFFD');
  });

  it('does not enter bytes or class instances', () => {
    const bytes = Buffer.from([0xd8, 0x00]);
    expect(wellFormedValue({ b: bytes }).b).toBe(bytes);
  });
});

describe('jsonTextIsWellFormed', () => {
  it('says yes only for text whose parsed value holds no lone surrogate', () => {
    const cases: [string, boolean][] = [
      ['{"message":"plain text, ünïcödé"}', true],
      ['{"message":"a pair as is: \u{1F600}"}', true],
      ['{"message":"\\ud800"}', false],
      ['{"message":"\\uDFFF"}', false],
      // A pair spelled as escapes is well formed, but the text is walked to be sure.
      ['{"message":"\\ud83d\\ude00"}', false],
      ['{"message":"lone \ud800 as is"}', false],
    ];
    for (const [text, expected] of cases) {
      expect(jsonTextIsWellFormed(text), text).toBe(expected);
      if (expected) {
        const parsed: unknown = JSON.parse(text);
        expect(wellFormedValue(parsed)).toBe(parsed);
      }
    }
  });
});
