import type { MiddlewareHandler } from 'hono';
import { checkAccountBearer, checkBrowserSession } from '../auth/credentials';
import { readSessionCookie } from '../auth/session-cookie';
import { fail } from '../core/api-error';
import type { AppEnv } from './app-env';
import type { Deps } from '../core/deps';

export function bearerOf(header: string | undefined): string | null {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return m?.[1] ?? null;
}

const messages = {
  unknown: 'account authentication is missing, invalid or expired',
  expired: 'access token expired',
  revoked: 'this sign-in was revoked',
  ingest_key: 'an ingest key cannot be used for account requests',
} as const;

/**
 * Requires an account credential: a bearer token, or (where the spec allows it) the
 * browser session cookie. Sets `principal`. Everything else is `401 unauthorized`.
 */
export function requireAccount(deps: Deps, opts: { session: boolean }): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const bearer = bearerOf(c.req.header('authorization'));
    if (bearer) {
      const check = await checkAccountBearer(deps, bearer);
      if (!check.ok) {
        throw fail.unauthorized(
          messages[check.reason],
          check.reason === 'ingest_key'
            ? 'Ingest keys are only for SDKs and the ingest routes; use an account token or sign in.'
            : 'Sign in again (or refresh the session), then repeat the request.',
        );
      }
      c.set('principal', check.principal);
      return next();
    }
    const cookie = opts.session ? readSessionCookie(c) : undefined;
    if (cookie) {
      const principal = await checkBrowserSession(deps, cookie);
      if (principal) {
        c.set('principal', principal);
        return next();
      }
    }
    throw fail.unauthorized(
      messages.unknown,
      'Sign in, then repeat the request with an account bearer token.',
    );
  };
}
