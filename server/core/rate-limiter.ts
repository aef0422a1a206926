export type RateLimitTake = { ok: true } | { ok: false; retryAfterSeconds: number };

/**
 * Token buckets per key: `burst` requests at once, refilled at `perSecond`. In memory for one
 * service instance (http/rate-limit.ts); in PostgreSQL (pg-shared-state.ts) when several
 * share the limit.
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
