import { describe, expect, it } from 'vitest';
import {
  displayKeys,
  displayPointer,
  escapeToken,
  isPointer,
  lookupPointer,
  parsePointer,
  pointerOf,
  pointerSearchOf,
} from './json-pointer';

describe('parsePointer', () => {
  it('decodes ~1 and ~0 after splitting', () => {
    expect(parsePointer('/http/status')).toEqual(['http', 'status']);
    expect(parsePointer('/app.kubernetes.io~1name')).toEqual(['app.kubernetes.io/name']);
    expect(parsePointer('/cron~0schedule')).toEqual(['cron~schedule']);
    expect(parsePointer('/a~01')).toEqual(['a~1']);
    expect(parsePointer('/')).toEqual(['']);
  });

  it('refuses what is not a pointer', () => {
    expect(parsePointer('http/status')).toBeNull();
    expect(parsePointer('')).toBeNull();
    expect(parsePointer('/a~2')).toBeNull();
    expect(parsePointer('/a~')).toBeNull();
    expect(isPointer('/ok')).toBe(true);
  });
});

describe('pointerOf', () => {
  it('escapes ~ before /', () => {
    expect(escapeToken('a/b~c')).toBe('a~1b~0c');
    expect(pointerOf(['app.kubernetes.io/name'])).toBe('/app.kubernetes.io~1name');
    expect(pointerOf(['http', 'status'])).toBe('/http/status');
    expect(parsePointer(pointerOf(['~1', '/']))).toEqual(['~1', '/']);
  });
});

describe('lookupPointer', () => {
  const attrs = { http: { status: 500 }, 'a/b': 'x', list: [{ k: 1 }], nil: null };

  it('follows object keys', () => {
    expect(lookupPointer(attrs, '/http/status')).toEqual({ found: true, value: 500 });
    expect(lookupPointer(attrs, '/a~1b')).toEqual({ found: true, value: 'x' });
    expect(lookupPointer(attrs, '/nil')).toEqual({ found: true, value: null });
  });

  it('never follows array indexes or inherited keys', () => {
    expect(lookupPointer(attrs, '/list/0/k')).toEqual({ found: false });
    expect(lookupPointer(attrs, '/http/missing')).toEqual({ found: false });
    expect(lookupPointer(attrs, '/constructor')).toEqual({ found: false });
    expect(lookupPointer(attrs, 'http')).toEqual({ found: false });
  });
});

describe('displayPointer', () => {
  it('shows each key as written and nesting with ›', () => {
    expect(displayPointer('/stripe~1event')).toBe('stripe/event');
    expect(displayPointer('/stripe/event')).toBe('stripe › event');
    expect(displayPointer('/k8s/app.kubernetes.io~1name')).toBe('k8s › app.kubernetes.io/name');
    expect(displayPointer('/cron~0schedule')).toBe('cron~schedule');
    expect(displayPointer('/a~01')).toBe('a~1');
  });

  it('quotes a key that could be read as nesting or as another key', () => {
    expect(displayPointer(pointerOf(['a › b']))).toBe('"a › b"');
    expect(displayPointer(pointerOf(['a', 'b']))).toBe('a › b');
    expect(displayPointer(pointerOf(['a›b', 'c']))).toBe('"a›b" › c');
    expect(displayPointer('/')).toBe('""');
    expect(displayPointer(pointerOf([' padded']))).toBe('" padded"');
    expect(displayPointer(pointerOf(['"quoted"']))).toBe('"\\"quoted\\""');
    expect(displayPointer(pointerOf(['line\nbreak']))).toBe('"line\\nbreak"');
  });

  it('never shows two different paths the same way', () => {
    const paths = [
      ['a/b'],
      ['a', 'b'],
      ['a › b'],
      ['a ', 'b'],
      ['a', ' b'],
      ['"a"'],
      ['a'],
      [''],
      ['', ''],
      ['a~1b'],
    ];
    const shown = paths.map((keys) => displayPointer(pointerOf(keys)));
    expect(new Set(shown).size).toBe(paths.length);
  });

  it('leaves text that is not a pointer as it is', () => {
    expect(displayPointer('http/status')).toBe('http/status');
    expect(displayKeys('nope')).toBeNull();
    expect(displayKeys('/a/b~1c')).toEqual(['a', 'b/c']);
  });
});

describe('pointerSearchOf', () => {
  it('turns what a person typed, as paths are shown, into a pointer substring', () => {
    expect(pointerSearchOf('app.kubernetes.io/name')).toBe('app.kubernetes.io~1name');
    expect(pointerSearchOf('http › status')).toBe('http/status');
    expect(pointerSearchOf('http›status')).toBe('http/status');
    expect(pointerSearchOf('status')).toBe('status');
    expect(pointerSearchOf('cron~')).toBe('cron~0');
  });
});
