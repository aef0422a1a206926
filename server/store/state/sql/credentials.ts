import type { CredentialsStore } from '../../../core/store/state/credentials';
import {
  toAccessToken,
  toBrowserSession,
  toLoginFamily,
  toRefreshToken,
  type AccessTokenDbRow,
  type BrowserSessionDbRow,
  type LoginFamilyDbRow,
  type RefreshTokenDbRow,
} from '../../rows/credentials';
import { sql, type SqlRunner } from '../../rows/sql';

/** Sign-in families and tokens: one statement each, the same SQL on both engines. */
export function sqlCredentials(db: SqlRunner): CredentialsStore {
  return {
    async createFamily(f) {
      await db.run(sql`INSERT INTO login_families (id, account_id, login_at, revoked_at)
        VALUES (${f.id}, ${f.accountId}, ${f.loginAt}, ${f.revokedAt})`);
    },
    async family(id) {
      const r = await db.one<LoginFamilyDbRow>(
        sql`SELECT id, account_id, login_at, revoked_at FROM login_families WHERE id = ${id}`,
      );
      return r ? toLoginFamily(r) : null;
    },
    async revokeFamily(id, at) {
      await db.run(
        sql`UPDATE login_families SET revoked_at = COALESCE(revoked_at, ${at}) WHERE id = ${id}`,
      );
    },
    async insertRefreshToken(t) {
      await db.run(sql`INSERT INTO refresh_tokens
          (token_hash, family_id, issued_at, expires_at, replaced_at)
        VALUES (${t.tokenHash}, ${t.familyId}, ${t.issuedAt}, ${t.expiresAt}, ${t.replacedAt})`);
    },
    async refreshToken(hash) {
      const r = await db.one<RefreshTokenDbRow>(sql`SELECT token_hash, family_id, issued_at,
          expires_at, replaced_at
        FROM refresh_tokens WHERE token_hash = ${hash}`);
      return r ? toRefreshToken(r) : null;
    },
    async markRefreshTokenReplaced(hash, at) {
      // One statement: of two requests (or instances) rotating the same token at once, one wins.
      const n = await db.run(sql`UPDATE refresh_tokens SET replaced_at = ${at}
        WHERE token_hash = ${hash} AND replaced_at IS NULL`);
      return n === 1;
    },
    async insertAccessToken(t) {
      await db.run(sql`INSERT INTO access_tokens
          (token_hash, account_id, kind, family_id, login_at, issued_at, expires_at)
        VALUES (${t.tokenHash}, ${t.accountId}, ${t.kind}, ${t.familyId}, ${t.loginAt},
          ${t.issuedAt}, ${t.expiresAt})`);
    },
    async accessToken(hash) {
      const r = await db.one<AccessTokenDbRow>(sql`SELECT token_hash, account_id, kind, family_id,
          login_at, issued_at, expires_at
        FROM access_tokens WHERE token_hash = ${hash}`);
      return r ? toAccessToken(r) : null;
    },
    async insertBrowserSession(s) {
      await db.run(sql`INSERT INTO browser_sessions
          (token_hash, account_id, family_id, login_at, expires_at, revoked_at)
        VALUES (${s.tokenHash}, ${s.accountId}, ${s.familyId}, ${s.loginAt}, ${s.expiresAt},
          ${s.revokedAt})`);
    },
    async browserSession(hash) {
      const r = await db.one<BrowserSessionDbRow>(sql`SELECT token_hash, account_id, family_id,
          login_at, expires_at, revoked_at
        FROM browser_sessions WHERE token_hash = ${hash}`);
      return r ? toBrowserSession(r) : null;
    },
    async revokeBrowserSession(hash, at) {
      await db.run(sql`UPDATE browser_sessions SET revoked_at = COALESCE(revoked_at, ${at})
        WHERE token_hash = ${hash}`);
    },
    async isIngestKeyHash(hash) {
      return (await db.one(sql`SELECT 1 FROM ingest_keys WHERE key_hash = ${hash}`)) !== null;
    },
  };
}
