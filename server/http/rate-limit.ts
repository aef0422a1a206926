import { takeResult, type RateLimiter, type RateLimitOptions } from '../core/rate-limiter';
import { ApiError } from '../core/api-error';

/** How often buckets that have refilled are forgotten. */
const SWEEP_MS = 60_000;

/**
 * The in-memory limiter of one service instance. A bucket that has refilled answers as a
 * missing one would, so buckets are forgotten once full: keys that stop sending (a revoked
 * ingest key, a client address seen once) do not stay in memory for the life of the process.
 */
export function createRateLimiter(
  opts: RateLimitOptions,
): RateLimiter & { readonly bucketCount: number } {
  const buckets = new Map<string, { tokens: number; at: number }>();
  let sweptAt = opts.now();
  const refilled = (b: { tokens: number; at: number }, now: number) =>
    Math.min(opts.burst, b.tokens + ((now - b.at) / 1000) * opts.perSecond);
  return {
    take: async (key) => {
      const now = opts.now();
      if (now - sweptAt >= SWEEP_MS) {
        sweptAt = now;
        for (const [k, b] of buckets) if (refilled(b, now) >= opts.burst) buckets.delete(k);
      }
      const b = buckets.get(key) ?? { tokens: opts.burst, at: now };
      b.tokens = refilled(b, now);
      b.at = now;
      buckets.set(key, b);
      const taken = b.tokens >= 1;
      if (taken) b.tokens -= 1;
      return takeResult(taken, b.tokens, opts.perSecond);
    },
    get bucketCount() {
      return buckets.size;
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
