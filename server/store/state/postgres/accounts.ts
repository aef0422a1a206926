import type { AccountsStore } from '../../../core/store/state/accounts';
import type { IdempotencyReceipt } from '../../../core/store/state/idempotency';
import type { OrganizationRow } from '../../../core/store/state/accounts';
import {
  ACCOUNT_COLUMNS,
  toAccount,
  toMembership,
  type AccountDbRow,
  type MembershipDbRow,
} from '../../rows/accounts';
import type { PgDb, Sql } from '../../postgres/pg-database';
import { receiptWriter } from './idempotency';
import { slugTakenOn } from './slug-taken';
import { sql, raw } from '../../rows/sql';

const insertOrganization = (tx: Sql, o: OrganizationRow) =>
  slugTakenOn(
    tx.run(
      sql`INSERT INTO organizations (id, slug, name, created_at)
        VALUES (${o.id}, ${o.slug}, ${o.name}, ${o.createdAt})`,
    ),
    'organizations_slug_key',
    o.slug,
  );

export function pgAccounts(db: PgDb): AccountsStore {
  const createOwned = (
    o: OrganizationRow,
    ownerId: string,
    maxOwned: number,
    receipt: IdempotencyReceipt | null,
  ) =>
    db.tx(async (tx) => {
      // The owner's row lock makes the count and the insert one step for each owner, so
      // concurrent creates on several instances cannot pass the limit together.
      await tx.run(sql`SELECT 1 FROM accounts WHERE id = ${ownerId} FOR NO KEY UPDATE`);
      const owned = await tx.one<{ n: number }>(
        sql`SELECT COUNT(*) AS n FROM memberships WHERE account_id = ${ownerId} AND role = 'owner'`,
      );
      if ((owned?.n ?? 0) >= maxOwned) return false;
      await insertOrganization(tx, o);
      await tx.run(
        sql`INSERT INTO memberships (organization_id, account_id, role) VALUES (${o.id}, ${ownerId},
        'owner')`,
      );
      if (receipt) await receiptWriter(tx)(receipt);
      return true;
    });
  return {
    async create(a) {
      await db.run(sql`INSERT INTO accounts (id, email, name, password_hash, created_at, revoked_before)
         VALUES (${a.id}, ${a.email}, ${a.name}, ${a.passwordHash}, ${a.createdAt},
         ${a.revokedBefore})`);
    },
    async byId(id) {
      const r = await db.one<AccountDbRow>(
        sql`SELECT ${raw(ACCOUNT_COLUMNS)} FROM accounts WHERE id = ${id}`,
      );
      return r ? toAccount(r) : null;
    },
    async byEmail(email) {
      // E-mail addresses are unique without ASCII case, as SQLite's COLLATE NOCASE; the C
      // collation keeps lower() to ASCII (as the unique index) whatever the database's locale.
      const r = await db.one<AccountDbRow>(
        sql`SELECT ${raw(ACCOUNT_COLUMNS)} FROM accounts WHERE lower(email) = lower(${email}::text COLLATE "C")`,
      );
      return r ? toAccount(r) : null;
    },
    async setRevokedBefore(accountId, at) {
      // Never moves backward: a late, older logout-all must not re-admit newer tokens.
      await db.run(sql`UPDATE accounts SET revoked_before = GREATEST(COALESCE(revoked_before, 0), ${at})
         WHERE id = ${accountId}`);
    },
    async createOrganization(o) {
      await insertOrganization(db, o);
    },
    async organizationSlugTaken(slug) {
      return (await db.one(sql`SELECT 1 FROM organizations WHERE slug = ${slug}`)) !== null;
    },
    async createOwnedOrganization(o, ownerId, maxOwned, receipt) {
      return createOwned(o, ownerId, maxOwned, receipt ?? null);
    },
    async addMember(m) {
      await db.run(
        sql`INSERT INTO memberships (organization_id, account_id, role) VALUES (${m.organizationId},
        ${m.accountId}, ${m.role})`,
      );
    },
    async membershipsOf(accountId) {
      const rows =
        await db.rows<MembershipDbRow>(sql`SELECT m.organization_id, m.account_id, m.role, o.name FROM memberships m
         JOIN organizations o ON o.id = m.organization_id
         WHERE m.account_id = ${accountId} ORDER BY o.name, o.id`);
      return rows.map(toMembership);
    },
    async createTeam(t, memberIds) {
      await db.tx(async (tx) => {
        await tx.run(
          sql`INSERT INTO teams (id, organization_id, slug, name) VALUES (${t.id},
          ${t.organizationId}, ${t.slug}, ${t.name})`,
        );
        if (memberIds.length > 0) {
          await tx.run(
            sql`INSERT INTO team_members (team_id, account_id) SELECT ${t.id},
            unnest(${memberIds}::text[])`,
          );
        }
      });
    },
    async count() {
      return (await db.one<{ n: number }>(sql`SELECT COUNT(*) AS n FROM accounts`))?.n ?? 0;
    },
  };
}
