import type { IdempotencyReceipt } from './idempotency';
import type { OrgRole } from '../../../domain/org-role';

/** Accounts, organizations, memberships and teams. Times are epoch milliseconds. */
export interface AccountsStore {
  create(row: AccountRow): Promise<void>;
  byId(id: string): Promise<AccountRow | null>;
  byEmail(email: string): Promise<AccountRow | null>;
  setRevokedBefore(accountId: string, at: number): Promise<void>;
  createOrganization(row: OrganizationRow): Promise<void>;
  /** Whether an organization already uses the slug (slugs are unique across the service). */
  organizationSlugTaken(slug: string): Promise<boolean>;
  /**
   * Creates an organization owned by the account, in one transaction with the check that it
   * owns fewer than `maxOwned` organizations, so two concurrent creates cannot pass the
   * limit. False (nothing written) when it already owns `maxOwned`.
   */
  createOwnedOrganization(
    row: OrganizationRow,
    ownerId: string,
    maxOwned: number,
    receipt?: IdempotencyReceipt | null,
  ): Promise<boolean>;
  addMember(row: MembershipRow): Promise<void>;
  membershipsOf(accountId: string): Promise<(MembershipRow & { organizationName: string })[]>;
  createTeam(row: TeamRow, memberIds: string[]): Promise<void>;
  count(): Promise<number>;
}

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
