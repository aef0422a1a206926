import { describe, expect, it } from 'vitest';
import { escapeToken, isPointer, lookupPointer, parsePointer, pointerOf } from './json-pointer';

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
