import { describe, expect, it } from 'vitest';
import { createRateLimiter, rateLimited } from './rate-limit';

describe('createRateLimiter', () => {
  it('allows a burst, then refuses until tokens refill', async () => {
    let t = 0;
    const limiter = createRateLimiter({ perSecond: 2, burst: 3, now: () => t });
    const burst = [await limiter.take('k'), await limiter.take('k'), await limiter.take('k')];
    expect(burst.map((r) => r.ok)).toEqual([true, true, true]);
    expect(await limiter.take('k')).toEqual({ ok: false, retryAfterSeconds: 1 });
    t += 500;
    expect((await limiter.take('k')).ok).toBe(true);
  });

  it('keeps keys apart', async () => {
    const limiter = createRateLimiter({ perSecond: 1, burst: 1, now: () => 0 });
    expect((await limiter.take('a')).ok).toBe(true);
    expect((await limiter.take('a')).ok).toBe(false);
    expect((await limiter.take('b')).ok).toBe(true);
  });

  it('asks for at least one whole second', async () => {
    const limiter = createRateLimiter({ perSecond: 1000, burst: 1, now: () => 0 });
    await limiter.take('k');
    expect(await limiter.take('k')).toEqual({ ok: false, retryAfterSeconds: 1 });
  });

  it('forgets keys whose bucket has refilled, and still limits the ones in use', async () => {
    let t = 0;
    const limiter = createRateLimiter({ perSecond: 1, burst: 2, now: () => t });
    // Ten thousand ingest keys (or client addresses) that each send once and never again.
    for (let i = 0; i < 10_000; i++) await limiter.take(`once-${i}`);
    await limiter.take('busy');
    await limiter.take('busy');
    t += 60_000;
    await limiter.take('busy');
    await limiter.take('busy');
    expect(await limiter.take('busy')).toEqual({ ok: false, retryAfterSeconds: 1 });
    // Only the key still short of tokens is kept; the others answer as new keys do.
    expect(limiter.bucketCount).toBe(1);
    expect((await limiter.take('once-1')).ok).toBe(true);
  });

  it('names the whole seconds until a token is back', async () => {
    const limiter = createRateLimiter({ perSecond: 0.25, burst: 1, now: () => 0 });
    await limiter.take('k');
    expect(await limiter.take('k')).toEqual({ ok: false, retryAfterSeconds: 4 });
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
