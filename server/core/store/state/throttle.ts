/**
 * Failed attempts per key (an account's e-mail, a client address), for sign-in throttling
 * (auth/attempt-throttle.ts). Kept in the state store so every service instance on one
 * PostgreSQL database counts the same failures.
 */
export interface ThrottleStore {
  /**
   * Counts one attempt as a failure unless the key is blocked at `now`; a key whose last
   * failure is older than `forgetBefore` starts again from one. One statement: concurrent
   * attempts on any instance each see the count the previous one left.
   */
  count(key: string, now: number, forgetBefore: number): Promise<ThrottleCount>;
  /** Blocks the key until `until` (a later block already there stays). */
  block(key: string, until: number): Promise<void>;
  /**
   * Takes back one counted attempt that turned out not to be a failure, and the block it set
   * (`blockedUntil`, 0 for none) unless a later failure has moved the block since.
   */
  forgive(key: string, blockedUntil: number): Promise<void>;
  /** Forgets the key (an account's right password). */
  clear(key: string): Promise<void>;
  /** Forgets keys unblocked at `now` whose last failure is older than `forgetBefore`. */
  sweep(now: number, forgetBefore: number): Promise<void>;
}

/** After `count`: blocked (nothing was counted), or the key's failures including this one. */
export type ThrottleCount =
  { blocked: true; blockedUntil: number } | { blocked: false; failures: number };
