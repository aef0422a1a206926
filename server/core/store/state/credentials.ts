/** Sign-in families, refresh and access tokens, browser sessions; only hashes of tokens. */
export interface CredentialsStore {
  createFamily(row: LoginFamilyRow): Promise<void>;
  family(id: string): Promise<LoginFamilyRow | null>;
  revokeFamily(id: string, at: number): Promise<void>;
  insertRefreshToken(row: RefreshTokenRow): Promise<void>;
  refreshToken(tokenHash: string): Promise<RefreshTokenRow | null>;
  /** Marks the token replaced; false when it was already replaced (a reuse). */
  markRefreshTokenReplaced(tokenHash: string, at: number): Promise<boolean>;
  insertAccessToken(row: AccessTokenRow): Promise<void>;
  accessToken(tokenHash: string): Promise<AccessTokenRow | null>;
  insertBrowserSession(row: BrowserSessionRow): Promise<void>;
  browserSession(tokenHash: string): Promise<BrowserSessionRow | null>;
  revokeBrowserSession(tokenHash: string, at: number): Promise<void>;
  /** Whether a token hash belongs to an ingest key (to refuse it clearly on account routes). */
  isIngestKeyHash(tokenHash: string): Promise<boolean>;
}

export type LoginFamilyRow = {
  id: string;
  accountId: string;
  loginAt: number;
  revokedAt: number | null;
};

export type RefreshTokenRow = {
  tokenHash: string;
  familyId: string;
  issuedAt: number;
  expiresAt: number;
  replacedAt: number | null;
};

export type AccessTokenRow = {
  tokenHash: string;
  accountId: string;
  kind: 'session' | 'personal';
  familyId: string | null;
  loginAt: number;
  issuedAt: number;
  expiresAt: number | null;
};

export type BrowserSessionRow = {
  tokenHash: string;
  accountId: string;
  familyId: string;
  loginAt: number;
  expiresAt: number;
  revokedAt: number | null;
};
