import type { Db } from '../../sqlite/database';
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
import { sql } from '../../rows/sql';
import { SlugTakenError } from '../../../core/store/state/slug-taken';
import { allRows, firstRow, runStatement } from '../../sqlite/sqlite-sql';
import { receiptWriter } from './idempotency';

export function sqliteProjects(db: Db): ProjectsStore {
  const writeReceipt = receiptWriter(db);
  const slugTaken = (organizationId: string, slug: string) =>
    firstRow(db, projectWithSlug(organizationId, slug)) !== undefined;
  const insert = (p: ProjectRow, receipt: IdempotencyReceipt | null | undefined) => {
    if (slugTaken(p.organizationId, p.slug)) throw new SlugTakenError(p.slug);
    runStatement(db, insertProject(p));
    if (receipt) writeReceipt(receipt);
  };
  return {
    async create(p, receipt) {
      db.transaction(() => insert(p, receipt))();
    },
    async createWithinLimit(p, maxProjects, receipt) {
      return db.transaction(() => {
        if ((firstRow<{ n: number }>(db, projectCount(p.organizationId))?.n ?? 0) >= maxProjects)
          return false;
        insert(p, receipt);
        return true;
      })();
    },
    async readableBy(accountId) {
      return allRows<ProjectDbRow>(
        db,
        sql`${readableProjects(accountId)} ORDER BY p.name, p.id`,
      ).map(toProject);
    },
    async readable(accountId, projectId) {
      const r = firstRow<ProjectDbRow>(
        db,
        sql`${readableProjects(accountId)} WHERE p.id = ${projectId}`,
      );
      return r ? toProject(r) : null;
    },
    async slugTaken(organizationId, slug) {
      return slugTaken(organizationId, slug);
    },
    async createIngestKey(k, receipt) {
      db.transaction(() => {
        runStatement(db, insertIngestKey(k));
        if (receipt) writeReceipt(receipt);
      })();
    },
    async ingestKeyByHash(hash) {
      const r = firstRow<IngestKeyDbRow>(db, ingestKeyByHash(hash));
      return r ? toIngestKey(r) : null;
    },
  };
}
