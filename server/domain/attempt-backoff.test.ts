import { describe, expect, it } from 'vitest';
import { retryAfterSeconds, waitAfterFailures } from './attempt-backoff';

const policy = { allowance: 5, backoffSeconds: 1, lockoutSeconds: 900 };

describe('waitAfterFailures', () => {
  it('lets the allowance through, then doubles the wait up to the lockout', () => {
    expect([1, 2, 3, 4, 5].map((f) => waitAfterFailures(f, policy))).toEqual([0, 0, 0, 0, 0]);
    expect([6, 7, 8, 9].map((f) => waitAfterFailures(f, policy))).toEqual([1000, 2000, 4000, 8000]);
    expect(waitAfterFailures(15, policy)).toBe(512_000);
    expect(waitAfterFailures(16, policy)).toBe(900_000);
    expect(waitAfterFailures(10_000, policy)).toBe(900_000);
  });
});

describe('retryAfterSeconds', () => {
  it('rounds up to whole seconds, at least one', () => {
    expect(retryAfterSeconds(10_001, 0)).toBe(11);
    expect(retryAfterSeconds(10_000, 0)).toBe(10);
    expect(retryAfterSeconds(5, 0)).toBe(1);
    expect(retryAfterSeconds(0, 10)).toBe(1);
  });
});
