import type { AccountsStore } from '../../../core/store/state/accounts';
import type { IdempotencyReceipt } from '../../../core/store/state/idempotency';
import type { OrganizationRow } from '../../../core/store/state/accounts';
import {
  ACCOUNT_COLUMNS,
  accountById,
  countAccounts,
  insertAccount,
  insertMembership,
  insertOrganization,
  insertTeam,
  membershipsOf,
  organizationWithSlug,
  ownedOrganizationCount,
  toAccount,
  toMembership,
  type AccountDbRow,
  type MembershipDbRow,
} from '../../rows/accounts';
import type { PgDb, Sql } from '../../postgres/pg-database';
import { receiptWriter } from './idempotency';
import { slugTakenOn } from './slug-taken';
import { sql, raw } from '../../rows/sql';

const createOrganization = (tx: Sql, o: OrganizationRow) =>
  slugTakenOn(tx.run(insertOrganization(o)), 'organizations_slug_key', o.slug);

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
      const owned = await tx.one<{ n: number }>(ownedOrganizationCount(ownerId));
      if ((owned?.n ?? 0) >= maxOwned) return false;
      await createOrganization(tx, o);
      await tx.run(insertMembership({ organizationId: o.id, accountId: ownerId, role: 'owner' }));
      if (receipt) await receiptWriter(tx)(receipt);
      return true;
    });
  return {
    async create(a) {
      await db.run(insertAccount(a));
    },
    async byId(id) {
      const r = await db.one<AccountDbRow>(accountById(id));
      return r ? toAccount(r) : null;
    },
    async byEmail(email) {
      // E-mail addresses are unique without ASCII case, as SQLite's COLLATE NOCASE; the C
      // collation keeps lower() to ASCII (as the unique index) whatever the database's locale.
      const r = await db.one<AccountDbRow>(
        sql`SELECT ${raw(ACCOUNT_COLUMNS)} FROM accounts
          WHERE lower(email) = lower(${email}::text COLLATE "C")`,
      );
      return r ? toAccount(r) : null;
    },
    async setRevokedBefore(accountId, at) {
      // Never moves backward: a late, older logout-all must not re-admit newer tokens.
      await db.run(sql`UPDATE accounts
        SET revoked_before = GREATEST(COALESCE(revoked_before, 0), ${at}) WHERE id = ${accountId}`);
    },
    async createOrganization(o) {
      await createOrganization(db, o);
    },
    async organizationSlugTaken(slug) {
      return (await db.one(organizationWithSlug(slug))) !== null;
    },
    async createOwnedOrganization(o, ownerId, maxOwned, receipt) {
      return createOwned(o, ownerId, maxOwned, receipt ?? null);
    },
    async addMember(m) {
      await db.run(insertMembership(m));
    },
    async membershipsOf(accountId) {
      return (await db.rows<MembershipDbRow>(membershipsOf(accountId))).map(toMembership);
    },
    async createTeam(t, memberIds) {
      await db.tx(async (tx) => {
        await tx.run(insertTeam(t));
        if (memberIds.length > 0)
          await tx.run(sql`INSERT INTO team_members (team_id, account_id)
            SELECT ${t.id}, unnest(${memberIds}::text[])`);
      });
    },
    async count() {
      return (await db.one<{ n: number }>(countAccounts))?.n ?? 0;
    },
  };
}
