import type { Db } from '../../sqlite/database';
import type { OrganizationRow } from '../../../core/store/state/accounts';
import type { AccountsStore } from '../../../core/store/state/accounts';
import type { IdempotencyReceipt } from '../../../core/store/state/idempotency';
import {
  toAccount,
  toMembership,
  type AccountDbRow,
  type MembershipDbRow,
} from '../../rows/accounts';
import { SlugTakenError } from '../../../core/store/state/slug-taken';
import { receiptWriter } from './idempotency';

export function sqliteAccounts(db: Db): AccountsStore {
  const byId = db.prepare<[string], AccountDbRow>('SELECT * FROM accounts WHERE id = ?');
  const byEmail = db.prepare<[string], AccountDbRow>('SELECT * FROM accounts WHERE email = ?');
  // The same count as `usage.ownedOrganizationCount`, which subscription readiness reads.
  const ownedCount = db.prepare<[string], { n: number }>(
    `SELECT COUNT(*) AS n FROM memberships WHERE account_id = ? AND role = 'owner'`,
  );
  const writeReceipt = receiptWriter(db);
  const slugTaken = db.prepare<[string], 1>('SELECT 1 FROM organizations WHERE slug = ?');
  const insertOrganization = (o: OrganizationRow) => {
    if (slugTaken.get(o.slug)) throw new SlugTakenError(o.slug);
    db.prepare('INSERT INTO organizations (id, slug, name, created_at) VALUES (?, ?, ?, ?)').run(
      o.id,
      o.slug,
      o.name,
      o.createdAt,
    );
  };
  const createOwned = db.transaction(
    (
      o: OrganizationRow,
      ownerId: string,
      maxOwned: number,
      receipt: IdempotencyReceipt | null,
    ): boolean => {
      if ((ownedCount.get(ownerId)?.n ?? 0) >= maxOwned) return false;
      insertOrganization(o);
      db.prepare(
        `INSERT INTO memberships (organization_id, account_id, role) VALUES (?, ?, 'owner')`,
      ).run(o.id, ownerId);
      if (receipt) writeReceipt(receipt);
      return true;
    },
  );
  return {
    async create(a) {
      db.prepare(
        `INSERT INTO accounts (id, email, name, password_hash, created_at, revoked_before)
         VALUES (?, ?, ?, ?, ?, ?)`,
      ).run(a.id, a.email, a.name, a.passwordHash, a.createdAt, a.revokedBefore);
    },
    async byId(id) {
      const r = byId.get(id);
      return r ? toAccount(r) : null;
    },
    async byEmail(email) {
      const r = byEmail.get(email);
      return r ? toAccount(r) : null;
    },
    async setRevokedBefore(accountId, at) {
      // Never moves backward: a late, older logout-all must not re-admit newer tokens.
      db.prepare(
        `UPDATE accounts SET revoked_before = MAX(COALESCE(revoked_before, 0), ?) WHERE id = ?`,
      ).run(at, accountId);
    },
    async createOrganization(o) {
      insertOrganization(o);
    },
    async organizationSlugTaken(slug) {
      return slugTaken.get(slug) !== undefined;
    },
    async createOwnedOrganization(o, ownerId, maxOwned, receipt) {
      return createOwned(o, ownerId, maxOwned, receipt ?? null);
    },
    async addMember(m) {
      db.prepare(
        'INSERT INTO memberships (organization_id, account_id, role) VALUES (?, ?, ?)',
      ).run(m.organizationId, m.accountId, m.role);
    },
    async membershipsOf(accountId) {
      return db
        .prepare<[string], MembershipDbRow>(
          `SELECT m.organization_id, m.account_id, m.role, o.name FROM memberships m
           JOIN organizations o ON o.id = m.organization_id
           WHERE m.account_id = ? ORDER BY o.name, o.id`,
        )
        .all(accountId)
        .map(toMembership);
    },
    async createTeam(t, memberIds) {
      db.transaction(() => {
        db.prepare('INSERT INTO teams (id, organization_id, slug, name) VALUES (?, ?, ?, ?)').run(
          t.id,
          t.organizationId,
          t.slug,
          t.name,
        );
        const add = db.prepare('INSERT INTO team_members (team_id, account_id) VALUES (?, ?)');
        for (const id of memberIds) add.run(t.id, id);
      })();
    },
    async count() {
      return (db.prepare('SELECT COUNT(*) AS n FROM accounts').get() as { n: number }).n;
    },
  };
}
