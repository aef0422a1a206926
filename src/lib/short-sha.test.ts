import { describe, expect, it } from 'vitest';
import { shortSha } from './short-sha';

describe('shortSha', () => {
  it('keeps the first seven characters', () => {
    expect(shortSha('0123456789abcdef')).toBe('0123456');
    expect(shortSha('abc')).toBe('abc');
  });
});
