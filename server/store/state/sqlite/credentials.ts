import type { Db } from '../../sqlite/database';
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
import type { CredentialsStore } from '../../../core/store/state/credentials';

export function sqliteCredentials(db: Db): CredentialsStore {
  return {
    async createFamily(f) {
      db.prepare(
        'INSERT INTO login_families (id, account_id, login_at, revoked_at) VALUES (?, ?, ?, ?)',
      ).run(f.id, f.accountId, f.loginAt, f.revokedAt);
    },
    async family(id) {
      const r = db
        .prepare<[string], LoginFamilyDbRow>('SELECT * FROM login_families WHERE id = ?')
        .get(id);
      return r ? toLoginFamily(r) : null;
    },
    async revokeFamily(id, at) {
      db.prepare('UPDATE login_families SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?').run(
        at,
        id,
      );
    },
    async insertRefreshToken(t) {
      db.prepare(
        'INSERT INTO refresh_tokens (token_hash, family_id, issued_at, expires_at, replaced_at) VALUES (?, ?, ?, ?, ?)',
      ).run(t.tokenHash, t.familyId, t.issuedAt, t.expiresAt, t.replacedAt);
    },
    async refreshToken(hash) {
      const r = db
        .prepare<[string], RefreshTokenDbRow>('SELECT * FROM refresh_tokens WHERE token_hash = ?')
        .get(hash);
      return r ? toRefreshToken(r) : null;
    },
    async markRefreshTokenReplaced(hash, at) {
      const res = db
        .prepare(
          'UPDATE refresh_tokens SET replaced_at = ? WHERE token_hash = ? AND replaced_at IS NULL',
        )
        .run(at, hash);
      return res.changes === 1;
    },
    async insertAccessToken(t) {
      db.prepare(
        `INSERT INTO access_tokens (token_hash, account_id, kind, family_id, login_at, issued_at, expires_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ).run(t.tokenHash, t.accountId, t.kind, t.familyId, t.loginAt, t.issuedAt, t.expiresAt);
    },
    async accessToken(hash) {
      const r = db
        .prepare<[string], AccessTokenDbRow>('SELECT * FROM access_tokens WHERE token_hash = ?')
        .get(hash);
      return r ? toAccessToken(r) : null;
    },
    async insertBrowserSession(s) {
      db.prepare(
        `INSERT INTO browser_sessions (token_hash, account_id, family_id, login_at, expires_at, revoked_at)
         VALUES (?, ?, ?, ?, ?, ?)`,
      ).run(s.tokenHash, s.accountId, s.familyId, s.loginAt, s.expiresAt, s.revokedAt);
    },
    async browserSession(hash) {
      const r = db
        .prepare<[string], BrowserSessionDbRow>(
          'SELECT * FROM browser_sessions WHERE token_hash = ?',
        )
        .get(hash);
      return r ? toBrowserSession(r) : null;
    },
    async revokeBrowserSession(hash, at) {
      db.prepare(
        'UPDATE browser_sessions SET revoked_at = COALESCE(revoked_at, ?) WHERE token_hash = ?',
      ).run(at, hash);
    },
    async isIngestKeyHash(hash) {
      return db.prepare('SELECT 1 FROM ingest_keys WHERE key_hash = ?').get(hash) !== undefined;
    },
  };
}
