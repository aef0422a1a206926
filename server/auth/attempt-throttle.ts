import type { Deps } from '../core/deps';
import { retryAfterSeconds, waitAfterFailures } from '../domain/attempt-backoff';
import { hashToken } from '../domain/secrets';

/**
 * Sign-in throttling: failed attempts are counted per account (the e-mail as typed, normalized,
 * whether or not an account has it) and per client address, in the state store so every
 * instance counts alike. After an allowance each further failure makes the key wait twice as
 * long, up to a bounded lockout. Only failures count: an attempt is counted before its
 * password is checked (so a burst of parallel guesses cannot all slip through before the
 * first is recorded) and taken back when it succeeds.
 *
 * The same guards the routes that take a token a client could try to guess (refresh token,
 * session cookie, feed ticket), per address and apart from passwords: there only a token
 * that never existed counts, never one that expired or was revoked.
 */

export type ThrottleKey = {
  key: string;
  /** Failures answered at once. */
  allowance: number;
  /** For the log: what the key counts. */
  kind: 'account' | 'address';
};

/** Answer 429: the keys are blocked until `until`. */
export type Throttled = { throttled: true; until: number; retryAfterSeconds: number };

export type Attempt = {
  throttled: false;
  /** The password or token was right: the attempt was no failure. */
  succeeded(): Promise<void>;
  /** The token was known but refused (expired, revoked, spent): no guess, not counted. */
  notAGuess(): Promise<void>;
  /** The attempt failed: throttled when this failure starts a wait, else null (answer 401). */
  failed(): Promise<Throttled | null>;
};

type Counted = ThrottleKey & { failures: number; blockedUntil: number };

const SWEEP_EVERY_MS = 60_000;

/** `  Ada@Example.COM ` and `ada@example.com` are one account (e-mails match without ASCII case). */
export function accountKey(email: string): ThrottleKey['key'] {
  const normalized = email.trim().replace(/[A-Z]/g, (ch) => ch.toLowerCase());
  return `password:account:${hashToken(normalized)}`;
}

export function createAttemptThrottle(deps: Pick<Deps, 'store' | 'config' | 'now' | 'log'>) {
  const policy = deps.config.signInThrottle;
  const forgetMs = policy.forgetSeconds * 1000;
  let sweptAt = 0;

  const throttled = (until: number, now: number): Throttled => ({
    throttled: true,
    until,
    retryAfterSeconds: retryAfterSeconds(until, now),
  });

  function logDecision(route: string, address: string, k: ThrottleKey, t: Throttled, why: string) {
    deps.log.info('attempt throttled', {
      route,
      why,
      key: k.kind,
      // The account's key is a hash of the e-mail: the log never holds what was typed.
      ...(k.kind === 'account' ? { account: k.key.slice(-12) } : {}),
      address,
      retry_after_seconds: t.retryAfterSeconds,
    });
  }

  async function sweep(now: number) {
    if (now - sweptAt < SWEEP_EVERY_MS) return;
    sweptAt = now;
    await deps.store.throttle.sweep(now, now - forgetMs);
  }

  return {
    /**
     * Counts an attempt on each key before it is checked. Throttled when a key is still
     * waiting: then nothing is counted and the password or token must not be checked.
     */
    async begin(route: string, address: string, keys: ThrottleKey[]): Promise<Attempt | Throttled> {
      const now = deps.now();
      await sweep(now);
      const counted: Counted[] = [];
      const forgive = () =>
        Promise.all(counted.map((c) => deps.store.throttle.forgive(c.key, c.blockedUntil)));
      for (const k of keys) {
        const result = await deps.store.throttle.count(k.key, now, now - forgetMs);
        if (result.blocked) {
          await forgive();
          const t = throttled(result.blockedUntil, now);
          logDecision(route, address, k, t, 'waiting');
          return t;
        }
        const wait = waitAfterFailures(result.failures, {
          allowance: k.allowance,
          backoffSeconds: policy.backoffSeconds,
          lockoutSeconds: policy.lockoutSeconds,
        });
        // Blocked while this attempt is checked too, so parallel guesses wait for it.
        const blockedUntil = wait > 0 ? now + wait : 0;
        if (blockedUntil > 0) await deps.store.throttle.block(k.key, blockedUntil);
        counted.push({ ...k, failures: result.failures, blockedUntil });
      }
      return {
        throttled: false,
        async succeeded() {
          await Promise.all(
            counted.map((c) =>
              c.kind === 'account'
                ? deps.store.throttle.clear(c.key)
                : deps.store.throttle.forgive(c.key, c.blockedUntil),
            ),
          );
        },
        async notAGuess() {
          await forgive();
        },
        async failed() {
          const blocking = counted.filter((c) => c.blockedUntil > 0);
          if (blocking.length === 0) return null;
          const worst = blocking.reduce((a, b) => (b.blockedUntil > a.blockedUntil ? b : a));
          const t = throttled(worst.blockedUntil, now);
          for (const c of blocking) logDecision(route, address, c, t, `failure ${c.failures}`);
          return t;
        },
      };
    },

    passwordKeys(email: string, address: string): ThrottleKey[] {
      return [
        { key: `password:address:${address}`, allowance: policy.addressFailures, kind: 'address' },
        { key: accountKey(email), allowance: policy.accountFailures, kind: 'account' },
      ];
    },

    tokenKeys(address: string): ThrottleKey[] {
      return [
        { key: `token:address:${address}`, allowance: policy.addressFailures, kind: 'address' },
      ];
    },
  };
}

export type AttemptThrottle = ReturnType<typeof createAttemptThrottle>;
