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

const READABLE = `SELECT p.id, p.organization_id, p.slug, p.name, p.created_at, m.role
  FROM projects p JOIN memberships m ON m.organization_id = p.organization_id AND m.account_id = $1`;

const insert = async (sql: Sql, p: ProjectRow, receipt: IdempotencyReceipt | null | undefined) => {
  await slugTakenOn(
    sql.run(
      `INSERT INTO projects (id, organization_id, slug, name, created_at)
       VALUES ($1, $2, $3, $4, $5)`,
      [p.id, p.organizationId, p.slug, p.name, p.createdAt],
    ),
    'projects_organization_id_slug_key',
    p.slug,
  );
  if (receipt) await receiptWriter(sql)(receipt);
};

export function pgProjects(db: PgDb): ProjectsStore {
  return {
    async create(p, receipt) {
      await db.tx((sql) => insert(sql, p, receipt));
    },
    async createWithinLimit(p, maxProjects, receipt) {
      return db.tx(async (sql) => {
        // The organization's row lock makes the count and the insert one step per
        // organization, so concurrent creates on several instances cannot pass the limit.
        await sql.run('SELECT 1 FROM organizations WHERE id = $1 FOR NO KEY UPDATE', [
          p.organizationId,
        ]);
        const n = await sql.one<{ n: number }>(
          'SELECT COUNT(*)::int AS n FROM projects WHERE organization_id = $1',
          [p.organizationId],
        );
        if ((n?.n ?? 0) >= maxProjects) return false;
        await insert(sql, p, receipt);
        return true;
      });
    },
    async readableBy(accountId) {
      const rows = await db.rows<ProjectDbRow>(`${READABLE} ORDER BY p.name, p.id`, [accountId]);
      return rows.map(toProject);
    },
    async readable(accountId, projectId) {
      const r = await db.one<ProjectDbRow>(`${READABLE} WHERE p.id = $2`, [accountId, projectId]);
      return r ? toProject(r) : null;
    },
    async slugTaken(organizationId, slug) {
      return (
        (await db.one('SELECT 1 FROM projects WHERE organization_id = $1 AND slug = $2', [
          organizationId,
          slug,
        ])) !== null
      );
    },
    async createIngestKey(k, receipt) {
      await db.tx(async (sql) => {
        await sql.run(
          `INSERT INTO ingest_keys (id, project_id, name, key_hash, key_prefix, created_at, expires_at, revoked_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
          [
            k.id,
            k.projectId,
            k.name,
            k.keyHash,
            k.keyPrefix,
            k.createdAt,
            k.expiresAt,
            k.revokedAt,
          ],
        );
        if (receipt) await receiptWriter(sql)(receipt);
      });
    },
    async ingestKeyByHash(hash) {
      const r = await db.one<IngestKeyDbRow>(
        `SELECT ${INGEST_KEY_COLUMNS} FROM ingest_keys WHERE key_hash = $1`,
        [hash],
      );
      return r ? toIngestKey(r) : null;
    },
  };
}
