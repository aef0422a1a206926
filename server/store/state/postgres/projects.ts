import type { ProjectRow, ProjectsStore } from '../../../core/store/state/projects';
import type { IdempotencyReceipt } from '../../../core/store/state/idempotency';
import {
  ingestKeyByHash,
  insertIngestKey,
  insertProject,
  projectCount,
  projectWithSlug,
  readableProjects,
  toIngestKey,
  toProject,
  type IngestKeyDbRow,
  type ProjectDbRow,
} from '../../rows/projects';
import type { PgDb, Sql } from '../../postgres/pg-database';
import { sql } from '../../rows/sql';
import { receiptWriter } from './idempotency';
import { slugTakenOn } from './slug-taken';

const insert = async (tx: Sql, p: ProjectRow, receipt: IdempotencyReceipt | null | undefined) => {
  await slugTakenOn(tx.run(insertProject(p)), 'projects_organization_id_slug_key', p.slug);
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
        const n = await tx.one<{ n: number }>(projectCount(p.organizationId));
        if ((n?.n ?? 0) >= maxProjects) return false;
        await insert(tx, p, receipt);
        return true;
      });
    },
    async readableBy(accountId) {
      const rows = await db.rows<ProjectDbRow>(
        sql`${readableProjects(accountId)} ORDER BY p.name, p.id`,
      );
      return rows.map(toProject);
    },
    async readable(accountId, projectId) {
      const r = await db.one<ProjectDbRow>(
        sql`${readableProjects(accountId)} WHERE p.id = ${projectId}`,
      );
      return r ? toProject(r) : null;
    },
    async slugTaken(organizationId, slug) {
      return (await db.one(projectWithSlug(organizationId, slug))) !== null;
    },
    async createIngestKey(k, receipt) {
      await db.tx(async (tx) => {
        await tx.run(insertIngestKey(k));
        if (receipt) await receiptWriter(tx)(receipt);
      });
    },
    async ingestKeyByHash(hash) {
      const r = await db.one<IngestKeyDbRow>(ingestKeyByHash(hash));
      return r ? toIngestKey(r) : null;
    },
  };
}
