import { describe, expect, it } from 'vitest';
import { isValidIdempotencyKey } from './idempotency-key';

describe('isValidIdempotencyKey', () => {
  it('accepts 1 to 128 visible ASCII characters', () => {
    expect(isValidIdempotencyKey('a')).toBe(true);
    expect(isValidIdempotencyKey('~'.repeat(128))).toBe(true);
    expect(isValidIdempotencyKey('order-42/retry!')).toBe(true);
  });
  it('refuses empty, too long, spaces, control and non-ASCII characters', () => {
    expect(isValidIdempotencyKey('')).toBe(false);
    expect(isValidIdempotencyKey('x'.repeat(129))).toBe(false);
    expect(isValidIdempotencyKey('a b')).toBe(false);
    expect(isValidIdempotencyKey('a\tb')).toBe(false);
    expect(isValidIdempotencyKey('clé')).toBe(false);
  });
});
