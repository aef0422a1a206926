import { takeResult, type RateLimiter, type RateLimitOptions } from '../core/rate-limiter';
import { ApiError } from '../core/api-error';

/** The in-memory limiter of one service instance. */
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

/**
 * Spec: `429 rate_limited` with `retry_after_seconds` and equal `Retry-After` and
 * `X-RateLimit-After` headers. `text` replaces the general wording (sign-in throttling).
 */
export function rateLimited(
  retryAfterSeconds: number,
  text?: { error: string; next: string },
): ApiError {
  const s = String(retryAfterSeconds);
  return new ApiError({
    status: 429,
    code: 'rate_limited',
    error: text?.error ?? 'too many requests',
    next:
      text?.next ??
      `Wait ${s} seconds, then retry with exponential backoff; do not send retries in parallel.`,
    nextAction: { code: 'retry_later', target: 'request' },
    extra: { retry_after_seconds: retryAfterSeconds },
    headers: { 'Retry-After': s, 'X-RateLimit-After': s },
  });
}
