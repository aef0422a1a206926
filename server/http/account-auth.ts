import type { MiddlewareHandler } from 'hono';
import { checkAccountBearer, checkBrowserSession } from '../auth/credentials';
import { readSessionCookie } from '../auth/session-cookie';
import {
  namedProjects,
  notForToolConnections,
  outsideScope,
  withDelegation,
} from '../auth/delegated-scope';
import type { Delegation } from '../auth/principal';
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
  tool_connection_expired: 'this tool connection has expired',
  tool_connection_revoked: 'this tool connection was revoked',
} as const;

const nextFor = (reason: keyof typeof messages): string => {
  if (reason === 'ingest_key')
    return 'Ingest keys are only for SDKs and the ingest routes; use an account token or sign in.';
  if (reason === 'tool_connection_expired' || reason === 'tool_connection_revoked')
    return 'Create a new tool connection (Account, Tool connections) and give the tool its token.';
  return 'Sign in again (or refresh the session), then repeat the request.';
};

/** POST routes that only read (their filters are a JSON body): open to tool connections. */
const READ_POSTS = /^\/api\/telemetry\/analytics\//;

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
        throw fail.unauthorized(messages[check.reason], nextFor(check.reason));
      }
      c.set('principal', check.principal);
      const delegation = check.principal.delegation;
      if (!delegation) return next();
      refuseOutsideDelegation(delegation, {
        accountRoute: opts.session,
        method: c.req.method,
        path: c.req.path,
        query: (key) => c.req.queries(key),
      });
      return withDelegation(delegation, () => next());
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

/**
 * The spec's delegated-credential rules that can be checked before the route runs: reads only
 * (the account's own routes, which accept the browser session, are not reads of telemetry), and
 * a project named in the query outside the connection's scope is `403 forbidden`. Projects the
 * route finds by itself (a body's `project_id`, an issue's project) are checked by the projects
 * port under `withDelegation` (auth/delegated-scope.ts).
 */
function refuseOutsideDelegation(
  delegation: Delegation,
  req: {
    accountRoute: boolean;
    method: string;
    path: string;
    query: (key: string) => string[] | undefined;
  },
): void {
  if (req.accountRoute) throw notForToolConnections('account');
  const reads = req.method === 'GET' || req.method === 'HEAD' || READ_POSTS.test(req.path);
  if (!reads) throw notForToolConnections('write');
  if (namedProjects(req.query).some((id) => !delegation.projectIds.has(id))) throw outsideScope();
}
