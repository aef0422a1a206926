import type { Db } from '../../sqlite/database';
import type { AccountsStore, OrganizationRow } from '../../../core/store/state/accounts';
import type { IdempotencyReceipt } from '../../../core/store/state/idempotency';
import {
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
import { sql } from '../../rows/sql';
import { SlugTakenError } from '../../../core/store/state/slug-taken';
import { allRows, firstRow, runStatement } from '../../sqlite/sqlite-sql';
import { receiptWriter } from './idempotency';

export function sqliteAccounts(db: Db): AccountsStore {
  const writeReceipt = receiptWriter(db);
  const slugTaken = (slug: string) => firstRow(db, organizationWithSlug(slug)) !== undefined;
  const createOrganization = (o: OrganizationRow) => {
    if (slugTaken(o.slug)) throw new SlugTakenError(o.slug);
    runStatement(db, insertOrganization(o));
  };
  const createOwned = db.transaction(
    (
      o: OrganizationRow,
      ownerId: string,
      maxOwned: number,
      receipt: IdempotencyReceipt | null,
    ): boolean => {
      if ((firstRow<{ n: number }>(db, ownedOrganizationCount(ownerId))?.n ?? 0) >= maxOwned)
        return false;
      createOrganization(o);
      runStatement(
        db,
        insertMembership({ organizationId: o.id, accountId: ownerId, role: 'owner' }),
      );
      if (receipt) writeReceipt(receipt);
      return true;
    },
  );
  return {
    async create(a) {
      runStatement(db, insertAccount(a));
    },
    async byId(id) {
      const r = firstRow<AccountDbRow>(db, accountById(id));
      return r ? toAccount(r) : null;
    },
    async byEmail(email) {
      // The column is COLLATE NOCASE: e-mail addresses are unique without ASCII case.
      const r = firstRow<AccountDbRow>(db, sql`SELECT * FROM accounts WHERE email = ${email}`);
      return r ? toAccount(r) : null;
    },
    async setRevokedBefore(accountId, at) {
      // Never moves backward: a late, older logout-all must not re-admit newer tokens.
      runStatement(
        db,
        sql`UPDATE accounts SET revoked_before = MAX(COALESCE(revoked_before, 0), ${at})
          WHERE id = ${accountId}`,
      );
    },
    async createOrganization(o) {
      createOrganization(o);
    },
    async organizationSlugTaken(slug) {
      return slugTaken(slug);
    },
    async createOwnedOrganization(o, ownerId, maxOwned, receipt) {
      return createOwned(o, ownerId, maxOwned, receipt ?? null);
    },
    async addMember(m) {
      runStatement(db, insertMembership(m));
    },
    async membershipsOf(accountId) {
      return allRows<MembershipDbRow>(db, membershipsOf(accountId)).map(toMembership);
    },
    async createTeam(t, memberIds) {
      db.transaction(() => {
        runStatement(db, insertTeam(t));
        for (const id of memberIds)
          runStatement(
            db,
            sql`INSERT INTO team_members (team_id, account_id) VALUES (${t.id}, ${id})`,
          );
      })();
    },
    async count() {
      return firstRow<{ n: number }>(db, countAccounts)?.n ?? 0;
    },
  };
}
