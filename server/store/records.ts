/** Rows the store hands to the rest of the service. Times are epoch milliseconds. */

export type OrgRole = 'owner' | 'admin' | 'member';

export type AccountRow = {
  id: string;
  email: string;
  name: string | null;
  passwordHash: string;
  createdAt: number;
  revokedBefore: number | null;
};

export type OrganizationRow = { id: string; slug: string; name: string; createdAt: number };

export type MembershipRow = { organizationId: string; accountId: string; role: OrgRole };

export type TeamRow = { id: string; organizationId: string; slug: string; name: string };

export type ProjectRow = {
  id: string;
  organizationId: string;
  slug: string;
  name: string;
  createdAt: number;
};

/** A project together with the caller's role in its organization. */
export type ReadableProject = ProjectRow & { role: OrgRole };

export type IngestKeyRow = {
  id: string;
  projectId: string;
  name: string;
  keyPrefix: string;
  createdAt: number;
  expiresAt: number | null;
  revokedAt: number | null;
};

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

export type IdempotencyRecord = {
  requestHash: string;
  status: number;
  response: string;
};
