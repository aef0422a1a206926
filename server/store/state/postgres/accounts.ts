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

const INSERT_ORGANIZATION =
  'INSERT INTO organizations (id, slug, name, created_at) VALUES ($1, $2, $3, $4)';

const insertOrganization = (sql: Sql, o: OrganizationRow) =>
  slugTakenOn(
    sql.run(INSERT_ORGANIZATION, [o.id, o.slug, o.name, o.createdAt]),
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
    db.tx(async (sql) => {
      // The owner's row lock makes the count and the insert one step for each owner, so
      // concurrent creates on several instances cannot pass the limit together.
      await sql.run('SELECT 1 FROM accounts WHERE id = $1 FOR NO KEY UPDATE', [ownerId]);
      const owned = await sql.one<{ n: number }>(
        `SELECT COUNT(*) AS n FROM memberships WHERE account_id = $1 AND role = 'owner'`,
        [ownerId],
      );
      if ((owned?.n ?? 0) >= maxOwned) return false;
      await insertOrganization(sql, o);
      await sql.run(
        `INSERT INTO memberships (organization_id, account_id, role) VALUES ($1, $2, 'owner')`,
        [o.id, ownerId],
      );
      if (receipt) await receiptWriter(sql)(receipt);
      return true;
    });
  return {
    async create(a) {
      await db.run(
        `INSERT INTO accounts (id, email, name, password_hash, created_at, revoked_before)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [a.id, a.email, a.name, a.passwordHash, a.createdAt, a.revokedBefore],
      );
    },
    async byId(id) {
      const r = await db.one<AccountDbRow>(
        `SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE id = $1`,
        [id],
      );
      return r ? toAccount(r) : null;
    },
    async byEmail(email) {
      // E-mail addresses are unique without ASCII case, as SQLite's COLLATE NOCASE; the C
      // collation keeps lower() to ASCII (as the unique index) whatever the database's locale.
      const r = await db.one<AccountDbRow>(
        `SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE lower(email) = lower($1::text COLLATE "C")`,
        [email],
      );
      return r ? toAccount(r) : null;
    },
    async setRevokedBefore(accountId, at) {
      // Never moves backward: a late, older logout-all must not re-admit newer tokens.
      await db.run(
        `UPDATE accounts SET revoked_before = GREATEST(COALESCE(revoked_before, 0), $1)
         WHERE id = $2`,
        [at, accountId],
      );
    },
    async createOrganization(o) {
      await insertOrganization(db, o);
    },
    async organizationSlugTaken(slug) {
      return (await db.one('SELECT 1 FROM organizations WHERE slug = $1', [slug])) !== null;
    },
    async createOwnedOrganization(o, ownerId, maxOwned, receipt) {
      return createOwned(o, ownerId, maxOwned, receipt ?? null);
    },
    async addMember(m) {
      await db.run(
        'INSERT INTO memberships (organization_id, account_id, role) VALUES ($1, $2, $3)',
        [m.organizationId, m.accountId, m.role],
      );
    },
    async membershipsOf(accountId) {
      const rows = await db.rows<MembershipDbRow>(
        `SELECT m.organization_id, m.account_id, m.role, o.name FROM memberships m
         JOIN organizations o ON o.id = m.organization_id
         WHERE m.account_id = $1 ORDER BY o.name, o.id`,
        [accountId],
      );
      return rows.map(toMembership);
    },
    async createTeam(t, memberIds) {
      await db.tx(async (sql) => {
        await sql.run(
          'INSERT INTO teams (id, organization_id, slug, name) VALUES ($1, $2, $3, $4)',
          [t.id, t.organizationId, t.slug, t.name],
        );
        if (memberIds.length > 0) {
          await sql.run(
            'INSERT INTO team_members (team_id, account_id) SELECT $1, unnest($2::text[])',
            [t.id, memberIds],
          );
        }
      });
    },
    async count() {
      return (await db.one<{ n: number }>('SELECT COUNT(*) AS n FROM accounts'))?.n ?? 0;
    },
  };
}
