import type { Deps } from '../core/deps';
import type { Principal } from './principal';
import { hashToken, newId, newToken } from '../domain/secrets';
import type { AccountRow } from '../core/store/state/accounts';
import type { ToolConnectionRow } from '../core/store/state/tool-connections';
import { recordToolConnectionUse } from './tool-connection-usage';

/** A sign-in's tokens as the login and refresh routes return them. */
export type IssuedTokens = {
  accessToken: string;
  refreshToken: string;
  expiresInSeconds: number;
  sessionToken: string | null;
};

/** Spec (logout-all): everything issued at or before `revoked_before` is refused, inclusive. */
export function revokedByLogoutAll(account: AccountRow, loginAt: number): boolean {
  return account.revokedBefore !== null && loginAt <= account.revokedBefore;
}

export type BearerCheck =
  | { ok: true; principal: Principal }
  | {
      ok: false;
      reason:
        | 'unknown'
        | 'expired'
        | 'revoked'
        | 'ingest_key'
        | 'tool_connection_expired'
        | 'tool_connection_revoked';
    };

/**
 * Resolves an account bearer: a sign-in access token, a personal account token, or a tool
 * connection (the delegated credential, which carries its project scope).
 */
export async function checkAccountBearer(deps: Deps, token: string): Promise<BearerCheck> {
  const hash = hashToken(token);
  const row = await deps.store.credentials.accessToken(hash);
  if (!row) {
    const tool = await deps.store.toolConnections.byTokenHash(hash);
    if (tool) return checkToolConnection(deps, tool);
    const ingest = await deps.store.credentials.isIngestKeyHash(hash);
    return { ok: false, reason: ingest ? 'ingest_key' : 'unknown' };
  }
  if (row.expiresAt !== null && row.expiresAt <= deps.now())
    return { ok: false, reason: 'expired' };
  const account = await deps.store.accounts.byId(row.accountId);
  if (!account || revokedByLogoutAll(account, row.loginAt)) return { ok: false, reason: 'revoked' };
  return { ok: true, principal: { accountId: row.accountId, via: 'bearer' } };
}

/** A tool connection is refused once revoked or expired, or when its account is gone. */
async function checkToolConnection(deps: Deps, tool: ToolConnectionRow): Promise<BearerCheck> {
  if (tool.revokedAt !== null) return { ok: false, reason: 'tool_connection_revoked' };
  if (tool.expiresAt !== null && tool.expiresAt <= deps.now())
    return { ok: false, reason: 'tool_connection_expired' };
  if (!(await deps.store.accounts.byId(tool.accountId)))
    return { ok: false, reason: 'tool_connection_revoked' };
  recordToolConnectionUse(deps, tool.id);
  return {
    ok: true,
    principal: {
      accountId: tool.accountId,
      via: 'tool_connection',
      delegation: { connectionId: tool.id, projectIds: new Set(tool.projectIds) },
    },
  };
}

/** Resolves the browser session cookie; a session dies with its sign-in family. */
export async function checkBrowserSession(deps: Deps, token: string): Promise<Principal | null> {
  const row = await deps.store.credentials.browserSession(hashToken(token));
  if (!row || row.revokedAt !== null || row.expiresAt <= deps.now()) return null;
  const family = await deps.store.credentials.family(row.familyId);
  if (!family || family.revokedAt !== null) return null;
  const account = await deps.store.accounts.byId(row.accountId);
  if (!account || revokedByLogoutAll(account, row.loginAt)) return null;
  return { accountId: row.accountId, via: 'session' };
}

async function issueAccessToken(deps: Deps, accountId: string, familyId: string, loginAt: number) {
  const now = deps.now();
  const accessToken = newToken('access');
  await deps.store.credentials.insertAccessToken({
    tokenHash: hashToken(accessToken),
    accountId,
    kind: 'session',
    familyId,
    loginAt,
    issuedAt: now,
    expiresAt: now + deps.config.accessTokenTtlSeconds * 1000,
  });
  return accessToken;
}

async function issueRefreshToken(deps: Deps, familyId: string) {
  const now = deps.now();
  const refreshToken = newToken('refresh');
  await deps.store.credentials.insertRefreshToken({
    tokenHash: hashToken(refreshToken),
    familyId,
    issuedAt: now,
    expiresAt: now + deps.config.refreshTokenTtlSeconds * 1000,
    replacedAt: null,
  });
  return refreshToken;
}

/** A new sign-in: a new refresh-token family with its access token and browser session. */
export async function signIn(deps: Deps, accountId: string): Promise<IssuedTokens> {
  const loginAt = deps.now();
  const familyId = newId();
  await deps.store.credentials.createFamily({ id: familyId, accountId, loginAt, revokedAt: null });
  const sessionToken = newToken('session');
  await deps.store.credentials.insertBrowserSession({
    tokenHash: hashToken(sessionToken),
    accountId,
    familyId,
    loginAt,
    expiresAt: loginAt + deps.config.refreshTokenTtlSeconds * 1000,
    revokedAt: null,
  });
  return {
    accessToken: await issueAccessToken(deps, accountId, familyId, loginAt),
    refreshToken: await issueRefreshToken(deps, familyId),
    expiresInSeconds: deps.config.accessTokenTtlSeconds,
    sessionToken,
  };
}

/** `unknown`: the token never existed here (a guess), as opposed to one expired or revoked. */
export type RefreshOutcome = { ok: true; tokens: IssuedTokens } | { ok: false; unknown: boolean };

const refused = { ok: false, unknown: false } as const;
const unknownToken = { ok: false, unknown: true } as const;

/**
 * Rotates a refresh token within its family. Presenting a token that was already rotated
 * out is treated as theft: the whole family is revoked.
 */
export async function refreshWithToken(deps: Deps, refreshToken: string): Promise<RefreshOutcome> {
  const now = deps.now();
  const row = await deps.store.credentials.refreshToken(hashToken(refreshToken));
  if (!row) return unknownToken;
  if (row.expiresAt <= now) return refused;
  const family = await deps.store.credentials.family(row.familyId);
  if (!family || family.revokedAt !== null) return refused;
  const account = await deps.store.accounts.byId(family.accountId);
  if (!account || revokedByLogoutAll(account, family.loginAt)) return refused;
  if (!(await deps.store.credentials.markRefreshTokenReplaced(row.tokenHash, now))) {
    await deps.store.credentials.revokeFamily(family.id, now);
    return refused;
  }
  return {
    ok: true,
    tokens: {
      accessToken: await issueAccessToken(deps, family.accountId, family.id, family.loginAt),
      refreshToken: await issueRefreshToken(deps, family.id),
      expiresInSeconds: deps.config.accessTokenTtlSeconds,
      sessionToken: null,
    },
  };
}

/** The browser path: the session cookie stands for its family and yields fresh tokens of it. */
export async function refreshWithSession(
  deps: Deps,
  sessionToken: string,
): Promise<RefreshOutcome> {
  const row = await deps.store.credentials.browserSession(hashToken(sessionToken));
  if (!row) return unknownToken;
  if (!(await checkBrowserSession(deps, sessionToken))) return refused;
  return {
    ok: true,
    tokens: {
      accessToken: await issueAccessToken(deps, row.accountId, row.familyId, row.loginAt),
      refreshToken: await issueRefreshToken(deps, row.familyId),
      expiresInSeconds: deps.config.accessTokenTtlSeconds,
      sessionToken: null,
    },
  };
}

/**
 * Spec logout: revokes the token's family; idempotent for the same valid token. A token is
 * "valid" here when it is a known, unexpired refresh token (even one already revoked by logout).
 * `unknown`: no such token was ever issued here (a guess); `expired`: it was, and has expired.
 */
export async function logoutFamily(
  deps: Deps,
  refreshToken: string,
): Promise<'revoked' | 'expired' | 'unknown'> {
  const now = deps.now();
  const row = await deps.store.credentials.refreshToken(hashToken(refreshToken));
  if (!row) return 'unknown';
  if (row.expiresAt <= now) return 'expired';
  await deps.store.credentials.revokeFamily(row.familyId, now);
  return 'revoked';
}

/** A long-lived personal account token (the demo's `account_token`). */
export async function issuePersonalToken(deps: Deps, accountId: string): Promise<string> {
  const now = deps.now();
  const token = newToken('personal');
  await deps.store.credentials.insertAccessToken({
    tokenHash: hashToken(token),
    accountId,
    kind: 'personal',
    familyId: null,
    loginAt: now,
    issuedAt: now,
    expiresAt: null,
  });
  return token;
}
