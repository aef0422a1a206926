import { describe, expect, it } from 'vitest';
import { createRateLimiter, rateLimited } from './rate-limit';

describe('createRateLimiter', () => {
  it('allows a burst, then refuses until tokens refill', () => {
    let t = 0;
    const limiter = createRateLimiter({ perSecond: 2, burst: 3, now: () => t });
    expect([1, 2, 3].map(() => limiter.take('k').ok)).toEqual([true, true, true]);
    const refused = limiter.take('k');
    expect(refused).toEqual({ ok: false, retryAfterSeconds: 1 });
    t += 500;
    expect(limiter.take('k').ok).toBe(true);
  });

  it('keeps keys apart', () => {
    const limiter = createRateLimiter({ perSecond: 1, burst: 1, now: () => 0 });
    expect(limiter.take('a').ok).toBe(true);
    expect(limiter.take('a').ok).toBe(false);
    expect(limiter.take('b').ok).toBe(true);
  });

  it('asks for at least one whole second', () => {
    const limiter = createRateLimiter({ perSecond: 1000, burst: 1, now: () => 0 });
    limiter.take('k');
    expect(limiter.take('k')).toEqual({ ok: false, retryAfterSeconds: 1 });
  });
});

describe('rateLimited', () => {
  it('carries retry_after_seconds and both headers with the same value', () => {
    const e = rateLimited(7);
    expect(e.status).toBe(429);
    expect(e.code).toBe('rate_limited');
    expect(e.toBody().retry_after_seconds).toBe(7);
    expect(e.headers).toEqual({ 'Retry-After': '7', 'X-RateLimit-After': '7' });
  });
});
