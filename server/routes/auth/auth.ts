import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import {
  logoutFamily,
  refreshWithSession,
  refreshWithToken,
  signIn,
  type IssuedTokens,
} from '../../auth/credentials';
import {
  clearSessionCookie,
  readSessionCookie,
  writeSessionCookie,
} from '../../auth/session-cookie';
import { hashToken, unusablePasswordHash, verifyPassword } from '../../domain/secrets';
import { createAttemptThrottle } from '../../auth/attempt-throttle';
import { requireAccount } from '../../http/account-auth';
import { signInThrottled, tokenThrottled } from '../../http/attempt-throttled';
import { addressKey, clientAddress } from '../../http/client-address';
import { fail } from '../../core/api-error';
import type { AppEnv } from '../../http/app-env';
import type { Deps } from '../../core/deps';
import { jsonBody } from '../../http/json-body';
import {
  bearerOrSessionSecurity,
  errorResponses,
  jsonContent,
  NextActionSchema,
} from '../../http/openapi-shared';

const TokensSchema = z
  .object({
    access_token: z
      .string()
      .openapi({ description: 'Account bearer token; keep it in memory only.' }),
    refresh_token: z.string().openapi({ description: 'Rotates on every refresh; never print it.' }),
    token_type: z.literal('Bearer'),
    expires_in_seconds: z
      .number()
      .int()
      .openapi({ description: 'Access token lifetime (900 by default).' }),
  })
  .openapi('SignInTokens');

const login = createRoute({
  method: 'post',
  path: '/api/auth/login',
  tags: ['auth'],
  summary: 'Sign in with email and password',
  description:
    'Starts a new sign-in (a refresh-token family). Returns an access token (15 minutes), a refresh token (30 days) and sets the `svc_session` cookie (HttpOnly, SameSite=Lax) for the browser. Failed attempts are throttled per account (the e-mail, known or not) and per client address: after a few failures (5 per account, 20 per address by default) each further one makes the wait twice as long, up to a lockout of 15 minutes, answered `429 rate_limited` with `retry_after_seconds`, `Retry-After` and a `next` naming when to try again. While a wait lasts the password is not checked; after it the right password works again. Unknown e-mails get the same answers as known ones.',
  middleware: [jsonBody(16 * 1024)] as const,
  request: {
    body: {
      required: true,
      content: {
        'application/json': {
          schema: z.object({
            email: z.string().min(1).max(320),
            password: z.string().min(1).max(1024),
          }),
        },
      },
    },
  },
  responses: {
    200: jsonContent(TokensSchema, 'Signed in.'),
    ...errorResponses(400, 401, 413, 415, 422, 429),
  },
});

const refresh = createRoute({
  method: 'post',
  path: '/api/auth/refresh',
  tags: ['auth'],
  summary: 'Rotate a refresh token (or exchange the browser session) for new tokens',
  description:
    'With `refresh_token` in the body, rotates it within its family: the old token stops working, and presenting it again revokes the family. With an empty object, the `svc_session` cookie stands for its sign-in and yields fresh tokens of that family (how the console restores a sign-in after a reload). Tokens that were never issued are counted per client address; past the allowance the route answers `429 rate_limited` as sign-in does.',
  middleware: [jsonBody(16 * 1024)] as const,
  request: {
    body: {
      required: true,
      content: {
        'application/json': {
          schema: z.object({ refresh_token: z.string().min(1).max(512).optional() }),
        },
      },
    },
  },
  responses: {
    200: jsonContent(TokensSchema, 'New tokens of the same sign-in.'),
    ...errorResponses(400, 401, 413, 415, 422, 429),
  },
});

const logout = createRoute({
  method: 'post',
  path: '/api/auth/logout',
  tags: ['auth'],
  summary: 'Revoke one sign-in (refresh-token family)',
  description:
    'Revokes the refresh-token family of the given token; other sign-ins are unchanged and access tokens already issued stay valid until they expire. Re-sending the same valid token gives the same 200. No bearer. Tokens that were never issued are counted per client address; past the allowance the route answers `429 rate_limited` as sign-in does.',
  middleware: [jsonBody(16 * 1024)] as const,
  request: {
    body: {
      required: true,
      content: { 'application/json': { schema: z.object({ refresh_token: z.string().max(512) }) } },
    },
  },
  responses: {
    200: jsonContent(
      z.object({ revoked: z.literal(true), next_action: NextActionSchema }).openapi('LogoutResult'),
      'The sign-in is revoked; clear local credentials.',
    ),
    ...errorResponses(400, 401, 413, 415, 422, 429),
  },
});

const logoutAll = createRoute({
  method: 'post',
  path: '/api/auth/logout-all',
  tags: ['auth'],
  summary: 'Sign out every client of the account',
  description:
    'Access tokens, browser sessions and refresh tokens issued at or before `revoked_before` (inclusive, millisecond precision) are refused from now on, including tokens later refreshed from such a sign-in. Live connections end and the session cookie is cleared. A sign-in after that time stays valid. No body.',
  security: bearerOrSessionSecurity,
  responses: {
    200: jsonContent(
      z
        .object({
          revoked: z.literal(true),
          revoked_before: z.string(),
          next_action: NextActionSchema,
        })
        .openapi('LogoutAllResult'),
      'Every earlier sign-in is revoked.',
    ),
    ...errorResponses(401),
  },
});

const webLogout = createRoute({
  method: 'post',
  path: '/api/auth/web/logout',
  tags: ['auth'],
  summary: 'Clear the browser session cookie',
  description:
    'No credential needed. Ends this browser session only; other clients stay signed in.',
  responses: { 204: { description: 'The session cookie is cleared.' } },
});

const clearLocal = { code: 'clear_local_session', target: 'local_credentials' };

function tokensBody(t: IssuedTokens) {
  return {
    access_token: t.accessToken,
    refresh_token: t.refreshToken,
    token_type: 'Bearer' as const,
    expires_in_seconds: t.expiresInSeconds,
  };
}

export function registerAuthRoutes(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  const throttle = createAttemptThrottle(deps);
  const addressOf = (c: Context<AppEnv>) =>
    addressKey(clientAddress(c, deps.config.trustedProxies));

  app.openapi(login, async (c) => {
    const { email, password } = c.req.valid('json');
    const address = addressOf(c);
    const attempt = await throttle.begin(
      '/api/auth/login',
      address,
      throttle.passwordKeys(email, address),
    );
    if (attempt.throttled) throw signInThrottled(attempt);
    const account = await deps.store.accounts.byEmail(email.trim());
    // Verify against a dummy hash for unknown emails too, so timing does not reveal accounts.
    const ok = await verifyPassword(password, account?.passwordHash ?? unusablePasswordHash);
    if (!account || !ok) {
      const throttled = await attempt.failed();
      if (throttled) throw signInThrottled(throttled);
      throw fail.unauthorized(
        'email or password is incorrect',
        'Check the email and password and try again.',
      );
    }
    await attempt.succeeded();
    const tokens = await signIn(deps, account.id);
    if (tokens.sessionToken) {
      writeSessionCookie(
        c,
        tokens.sessionToken,
        deps.config.refreshTokenTtlSeconds,
        deps.config.cookieSecure,
      );
    }
    return c.json(tokensBody(tokens), 200);
  });

  app.openapi(refresh, async (c) => {
    const { refresh_token } = c.req.valid('json');
    const cookie = readSessionCookie(c);
    const refusedSignIn = () =>
      fail.unauthorized('this sign-in is no longer valid', 'Sign in again.');
    // Nothing presented, nothing guessed: not counted.
    if (!refresh_token && !cookie) throw refusedSignIn();
    const address = addressOf(c);
    const attempt = await throttle.begin('/api/auth/refresh', address, throttle.tokenKeys(address));
    if (attempt.throttled) throw tokenThrottled(attempt);
    const outcome = refresh_token
      ? await refreshWithToken(deps, refresh_token)
      : await refreshWithSession(deps, cookie ?? '');
    if (outcome.ok) {
      await attempt.succeeded();
      return c.json(tokensBody(outcome.tokens), 200);
    }
    if (!outcome.unknown) {
      await attempt.notAGuess();
      throw refusedSignIn();
    }
    const throttled = await attempt.failed();
    throw throttled ? tokenThrottled(throttled) : refusedSignIn();
  });

  app.openapi(logout, async (c) => {
    const { refresh_token } = c.req.valid('json');
    const address = addressOf(c);
    const attempt = await throttle.begin('/api/auth/logout', address, throttle.tokenKeys(address));
    if (attempt.throttled) throw tokenThrottled(attempt);
    const outcome = await logoutFamily(deps, refresh_token);
    if (outcome === 'revoked') {
      await attempt.succeeded();
      return c.json({ revoked: true as const, next_action: clearLocal }, 200);
    }
    if (outcome === 'unknown') {
      const throttled = await attempt.failed();
      if (throttled) throw tokenThrottled(throttled);
    } else {
      await attempt.notAGuess();
    }
    throw fail.unauthorized(
      'refresh token is invalid or expired',
      'Remove the local credentials anyway; sign in again to get a new session.',
      { code: 'authorize_request', target: 'auth' },
    );
  });

  app.openapi(
    { ...logoutAll, middleware: [requireAccount(deps, { session: true })] as const },
    async (c) => {
      const { accountId } = c.get('principal');
      const at = deps.now();
      await deps.store.accounts.setRevokedBefore(accountId, at);
      clearSessionCookie(c, deps.config.cookieSecure);
      for (const listener of deps.onAccountSignedOutEverywhere) listener(accountId);
      return c.json(
        {
          revoked: true as const,
          revoked_before: new Date(at).toISOString(),
          next_action: clearLocal,
        },
        200,
      );
    },
  );

  app.openapi(webLogout, async (c) => {
    const cookie = readSessionCookie(c);
    if (cookie) await deps.store.credentials.revokeBrowserSession(hashToken(cookie), deps.now());
    clearSessionCookie(c, deps.config.cookieSecure);
    return c.body(null, 204);
  });
}
