import { describe, expect, it } from 'vitest';
import { MALFORMED_QUERY, parseStrictQuery } from './strict-query';

const KEYS = ['a', 'b', 'search'];

describe('parseStrictQuery', () => {
  it('decodes values, in any order', () => {
    expect(parseStrictQuery('b=2&a=%2Fx%20y&search=a+b', KEYS)).toEqual({
      a: '/x y',
      b: '2',
      search: 'a b',
    });
    expect(parseStrictQuery('', KEYS)).toEqual({});
    expect(parseStrictQuery('a', KEYS)).toEqual({ a: '' });
  });
  it('rejects malformed percent-encoding with the exact text', () => {
    expect(() => parseStrictQuery('a=%zz', KEYS)).toThrow(new RegExp(`^${MALFORMED_QUERY}$`));
    expect(() => parseStrictQuery('%E0%A4%A=1', KEYS)).toThrow(new RegExp(`^${MALFORMED_QUERY}$`));
  });
  it('rejects repeated keys, also when encoded differently', () => {
    expect(() => parseStrictQuery('a=1&a=2', KEYS)).toThrow('repeated key a');
    expect(() => parseStrictQuery('a=1&%61=1', KEYS)).toThrow('repeated key a');
  });
  it('rejects unknown keys, naming them', () => {
    expect(() => parseStrictQuery('a=1&project=x&trace=y', KEYS)).toThrow(
      'unknown keys project, trace',
    );
    expect(() => parseStrictQuery('__proto__=1', KEYS)).toThrow('unknown key __proto__');
  });
});
