import { ApiError } from './api-error';

export type RateLimitTake = { ok: true } | { ok: false; retryAfterSeconds: number };

/**
 * Token buckets per key: `burst` requests at once, refilled at `perSecond`. In memory for one
 * service instance; in PostgreSQL (pg-shared-state.ts) when several share the limit.
 */
export type RateLimiter = {
  /** Takes one token; when none is left, how many whole seconds until one is. */
  take(key: string): Promise<RateLimitTake>;
};

export type RateLimitOptions = { perSecond: number; burst: number; now: () => number };

/** The answer for a bucket left with `tokens` after a take (`taken` false: none was left). */
export function takeResult(taken: boolean, tokens: number, perSecond: number): RateLimitTake {
  if (taken) return { ok: true };
  return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / perSecond)) };
}

export function createRateLimiter(opts: RateLimitOptions): RateLimiter {
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    take: async (key) => {
      const now = opts.now();
      const b = buckets.get(key) ?? { tokens: opts.burst, at: now };
      b.tokens = Math.min(opts.burst, b.tokens + ((now - b.at) / 1000) * opts.perSecond);
      b.at = now;
      buckets.set(key, b);
      const taken = b.tokens >= 1;
      if (taken) b.tokens -= 1;
      return takeResult(taken, b.tokens, opts.perSecond);
    },
  };
}

/** Spec: `429 rate_limited` with `retry_after_seconds` and equal `Retry-After` and `X-RateLimit-After` headers. */
export function rateLimited(retryAfterSeconds: number): ApiError {
  const s = String(retryAfterSeconds);
  return new ApiError({
    status: 429,
    code: 'rate_limited',
    error: 'too many requests',
    next: `Wait ${s} seconds, then retry with exponential backoff; do not send retries in parallel.`,
    nextAction: { code: 'retry_later', target: 'request' },
    extra: { retry_after_seconds: retryAfterSeconds },
    headers: { 'Retry-After': s, 'X-RateLimit-After': s },
  });
}
