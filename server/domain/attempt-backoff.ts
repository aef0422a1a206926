/**
 * How long a key waits after failed attempts (sign-in throttling): nothing for the first
 * `allowance` failures, then `backoffSeconds` doubled with each further failure, never more
 * than `lockoutSeconds`. The bound is what lets the right password in again: once the longest
 * wait has passed, the next attempt is checked as any other.
 */
export type BackoffPolicy = { allowance: number; backoffSeconds: number; lockoutSeconds: number };

/** Milliseconds to wait after the `failures`-th failure in a row (0: none). */
export function waitAfterFailures(failures: number, policy: BackoffPolicy): number {
  const over = failures - policy.allowance;
  if (over <= 0) return 0;
  // 2^over grows past any lockout long before it leaves the safe integers.
  const seconds = Math.min(
    policy.lockoutSeconds,
    policy.backoffSeconds * 2 ** Math.min(over - 1, 40),
  );
  return seconds * 1000;
}

/** Whole seconds until `until`, at least 1 (spec: `retry_after_seconds`). */
export function retryAfterSeconds(until: number, now: number): number {
  return Math.max(1, Math.ceil((until - now) / 1000));
}
