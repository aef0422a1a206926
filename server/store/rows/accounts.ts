import type {
  AccountRow,
  MembershipRow,
  OrganizationRow,
  TeamRow,
} from '../../core/store/state/accounts';
import { raw, sql, type SqlFragment } from './sql';

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

export const insertAccount = (a: AccountRow): SqlFragment =>
  sql`INSERT INTO accounts (${raw(ACCOUNT_COLUMNS)})
    VALUES (${a.id}, ${a.email}, ${a.name}, ${a.passwordHash}, ${a.createdAt}, ${a.revokedBefore})`;

export const accountById = (id: string): SqlFragment =>
  sql`SELECT ${raw(ACCOUNT_COLUMNS)} FROM accounts WHERE id = ${id}`;

export const countAccounts = sql`SELECT COUNT(*) AS n FROM accounts`;

export const insertOrganization = (o: OrganizationRow): SqlFragment =>
  sql`INSERT INTO organizations (id, slug, name, created_at)
    VALUES (${o.id}, ${o.slug}, ${o.name}, ${o.createdAt})`;

export const organizationWithSlug = (slug: string): SqlFragment =>
  sql`SELECT 1 FROM organizations WHERE slug = ${slug}`;

/** How many organizations the account owns (subscription readiness reads the same count). */
export const ownedOrganizationCount = (accountId: string): SqlFragment =>
  sql`SELECT COUNT(*) AS n FROM memberships WHERE account_id = ${accountId} AND role = 'owner'`;

export const insertMembership = (m: MembershipRow): SqlFragment =>
  sql`INSERT INTO memberships (organization_id, account_id, role)
    VALUES (${m.organizationId}, ${m.accountId}, ${m.role})`;

/** The account's memberships with their organizations' names, by name. */
export const membershipsOf = (accountId: string): SqlFragment =>
  sql`SELECT m.organization_id, m.account_id, m.role, o.name FROM memberships m
    JOIN organizations o ON o.id = m.organization_id
    WHERE m.account_id = ${accountId} ORDER BY o.name, o.id`;

export const insertTeam = (t: TeamRow): SqlFragment =>
  sql`INSERT INTO teams (id, organization_id, slug, name)
    VALUES (${t.id}, ${t.organizationId}, ${t.slug}, ${t.name})`;
