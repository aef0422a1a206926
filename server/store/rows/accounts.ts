import type { AccountRow } from '../../core/store/state/accounts';

/** An `accounts` row as both stores read it. */
export type AccountDbRow = {
  id: string;
  email: string;
  name: string | null;
  password_hash: string;
  created_at: number;
  revoked_before: number | null;
};

export const ACCOUNT_COLUMNS = 'id, email, name, password_hash, created_at, revoked_before';

export const toAccount = (r: AccountDbRow): AccountRow => ({
  id: r.id,
  email: r.email,
  name: r.name,
  passwordHash: r.password_hash,
  createdAt: r.created_at,
  revokedBefore: r.revoked_before,
});

/** A membership joined with its organization's name. */
export type MembershipDbRow = {
  organization_id: string;
  account_id: string;
  role: 'owner' | 'admin' | 'member';
  name: string;
};

export const toMembership = (r: MembershipDbRow) => ({
  organizationId: r.organization_id,
  accountId: r.account_id,
  role: r.role,
  organizationName: r.name,
});
