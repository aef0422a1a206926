import type { ProjectRow } from '../../../core/store/state/projects';
import type { IdempotencyReceipt } from '../../../core/store/state/idempotency';
import type { ProjectsStore } from '../../../core/store/state/projects';
import {
  INGEST_KEY_COLUMNS,
  toIngestKey,
  toProject,
  type IngestKeyDbRow,
  type ProjectDbRow,
} from '../../rows/projects';
import type { PgDb, Sql } from '../../postgres/pg-database';
import { receiptWriter } from './idempotency';
import { slugTakenOn } from './slug-taken';
import { sql, raw } from '../../rows/sql';

/** The projects the account reads, with its role in each. */
const readableBy = (accountId: string) =>
  sql`SELECT p.id, p.organization_id, p.slug, p.name, p.created_at, m.role
    FROM projects p
    JOIN memberships m ON m.organization_id = p.organization_id AND m.account_id = ${accountId}`;

const insert = async (tx: Sql, p: ProjectRow, receipt: IdempotencyReceipt | null | undefined) => {
  await slugTakenOn(
    tx.run(sql`INSERT INTO projects (id, organization_id, slug, name, created_at)
       VALUES (${p.id}, ${p.organizationId}, ${p.slug}, ${p.name}, ${p.createdAt})`),
    'projects_organization_id_slug_key',
    p.slug,
  );
  if (receipt) await receiptWriter(tx)(receipt);
};

export function pgProjects(db: PgDb): ProjectsStore {
  return {
    async create(p, receipt) {
      await db.tx((tx) => insert(tx, p, receipt));
    },
    async createWithinLimit(p, maxProjects, receipt) {
      return db.tx(async (tx) => {
        // The organization's row lock makes the count and the insert one step per
        // organization, so concurrent creates on several instances cannot pass the limit.
        await tx.run(
          sql`SELECT 1 FROM organizations WHERE id = ${p.organizationId} FOR NO KEY UPDATE`,
        );
        const n = await tx.one<{ n: number }>(
          sql`SELECT COUNT(*)::int AS n FROM projects WHERE organization_id = ${p.organizationId}`,
        );
        if ((n?.n ?? 0) >= maxProjects) return false;
        await insert(tx, p, receipt);
        return true;
      });
    },
    async readableBy(accountId) {
      const rows = await db.rows<ProjectDbRow>(sql`${readableBy(accountId)} ORDER BY p.name, p.id`);
      return rows.map(toProject);
    },
    async readable(accountId, projectId) {
      const r = await db.one<ProjectDbRow>(sql`${readableBy(accountId)} WHERE p.id = ${projectId}`);
      return r ? toProject(r) : null;
    },
    async slugTaken(organizationId, slug) {
      return (
        (await db.one(
          sql`SELECT 1 FROM projects WHERE organization_id = ${organizationId} AND slug = ${slug}`,
        )) !== null
      );
    },
    async createIngestKey(k, receipt) {
      await db.tx(async (tx) => {
        await tx.run(sql`INSERT INTO ingest_keys (id, project_id, name, key_hash, key_prefix, created_at, expires_at, revoked_at)
           VALUES (${k.id}, ${k.projectId}, ${k.name}, ${k.keyHash}, ${k.keyPrefix}, ${k.createdAt},
           ${k.expiresAt}, ${k.revokedAt})`);
        if (receipt) await receiptWriter(tx)(receipt);
      });
    },
    async ingestKeyByHash(hash) {
      const r = await db.one<IngestKeyDbRow>(
        sql`SELECT ${raw(INGEST_KEY_COLUMNS)} FROM ingest_keys WHERE key_hash = ${hash}`,
      );
      return r ? toIngestKey(r) : null;
    },
  };
}
