import type { Throttled } from '../auth/attempt-throttle';
import type { ApiError } from '../core/api-error';
import { rateLimited } from './rate-limit';

/** `14:03:05 UTC`: when a throttled client may try again, for people to read. */
function clockTime(epochMs: number): string {
  return `${new Date(epochMs).toISOString().slice(11, 19)} UTC`;
}

/** The 429 of a throttled sign-in: the same words whether or not the e-mail has an account. */
export function signInThrottled(t: Throttled): ApiError {
  const s = t.retryAfterSeconds;
  return rateLimited(s, {
    error: 'too many failed sign-in attempts',
    next: `Wait ${String(s)} ${s === 1 ? 'second' : 'seconds'} (until ${clockTime(t.until)}), then sign in again. Each further failed attempt makes the wait longer.`,
  });
}

/** The 429 of a route taking a token after too many unknown tokens from one address. */
export function tokenThrottled(t: Throttled): ApiError {
  const s = t.retryAfterSeconds;
  return rateLimited(s, {
    error: 'too many attempts with unknown credentials',
    next: `Wait ${String(s)} ${s === 1 ? 'second' : 'seconds'} (until ${clockTime(t.until)}), then try again; sign in again if the credential keeps being refused.`,
  });
}
