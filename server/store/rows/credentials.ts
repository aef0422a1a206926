import type {
  AccessTokenRow,
  BrowserSessionRow,
  LoginFamilyRow,
  RefreshTokenRow,
} from '../../core/store/state/credentials';

export type LoginFamilyDbRow = {
  id: string;
  account_id: string;
  login_at: number;
  revoked_at: number | null;
};

export const toLoginFamily = (r: LoginFamilyDbRow): LoginFamilyRow => ({
  id: r.id,
  accountId: r.account_id,
  loginAt: r.login_at,
  revokedAt: r.revoked_at,
});

export type RefreshTokenDbRow = {
  token_hash: string;
  family_id: string;
  issued_at: number;
  expires_at: number;
  replaced_at: number | null;
};

export const toRefreshToken = (r: RefreshTokenDbRow): RefreshTokenRow => ({
  tokenHash: r.token_hash,
  familyId: r.family_id,
  issuedAt: r.issued_at,
  expiresAt: r.expires_at,
  replacedAt: r.replaced_at,
});

export type AccessTokenDbRow = {
  token_hash: string;
  account_id: string;
  kind: 'session' | 'personal';
  family_id: string | null;
  login_at: number;
  issued_at: number;
  expires_at: number | null;
};

export const toAccessToken = (r: AccessTokenDbRow): AccessTokenRow => ({
  tokenHash: r.token_hash,
  accountId: r.account_id,
  kind: r.kind,
  familyId: r.family_id,
  loginAt: r.login_at,
  issuedAt: r.issued_at,
  expiresAt: r.expires_at,
});

export type BrowserSessionDbRow = {
  token_hash: string;
  account_id: string;
  family_id: string;
  login_at: number;
  expires_at: number;
  revoked_at: number | null;
};

export const toBrowserSession = (r: BrowserSessionDbRow): BrowserSessionRow => ({
  tokenHash: r.token_hash,
  accountId: r.account_id,
  familyId: r.family_id,
  loginAt: r.login_at,
  expiresAt: r.expires_at,
  revokedAt: r.revoked_at,
});
