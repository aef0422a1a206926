import { describe, expect, it } from 'vitest';
import { slugify } from './slug';

describe('slugify', () => {
  it('lowercases, strips accents and joins words with dashes', () => {
    expect(slugify('Checkout Service — Café')).toBe('checkout-service-cafe');
  });
  it('falls back when nothing usable is left', () => {
    expect(slugify('<<>>')).toBe('project');
  });
  it('bounds the length without a trailing dash', () => {
    expect(slugify('a '.repeat(60)).length).toBeLessThanOrEqual(48);
    expect(slugify('a '.repeat(60)).endsWith('-')).toBe(false);
  });
});
