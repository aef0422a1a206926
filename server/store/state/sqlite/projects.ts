import type { Db } from '../../sqlite/database';
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
import { SlugTakenError } from '../../../core/store/state/slug-taken';
import { receiptWriter } from './idempotency';

export function sqliteProjects(db: Db): ProjectsStore {
  const readableSql = `SELECT p.*, m.role FROM projects p
    JOIN memberships m ON m.organization_id = p.organization_id AND m.account_id = ?`;
  const writeReceipt = receiptWriter(db);
  const slugTaken = db.prepare<[string, string], 1>(
    'SELECT 1 FROM projects WHERE organization_id = ? AND slug = ?',
  );
  const countIn = db.prepare<[string], { n: number }>(
    'SELECT COUNT(*) AS n FROM projects WHERE organization_id = ?',
  );
  const insert = (p: ProjectRow, receipt: IdempotencyReceipt | null | undefined) => {
    if (slugTaken.get(p.organizationId, p.slug)) throw new SlugTakenError(p.slug);
    db.prepare(
      'INSERT INTO projects (id, organization_id, slug, name, created_at) VALUES (?, ?, ?, ?, ?)',
    ).run(p.id, p.organizationId, p.slug, p.name, p.createdAt);
    if (receipt) writeReceipt(receipt);
  };
  return {
    async create(p, receipt) {
      db.transaction(() => insert(p, receipt))();
    },
    async createWithinLimit(p, maxProjects, receipt) {
      return db.transaction(() => {
        if ((countIn.get(p.organizationId)?.n ?? 0) >= maxProjects) return false;
        insert(p, receipt);
        return true;
      })();
    },
    async readableBy(accountId) {
      return db
        .prepare<[string], ProjectDbRow>(`${readableSql} ORDER BY p.name, p.id`)
        .all(accountId)
        .map(toProject);
    },
    async readable(accountId, projectId) {
      const r = db
        .prepare<[string, string], ProjectDbRow>(`${readableSql} WHERE p.id = ?`)
        .get(accountId, projectId);
      return r ? toProject(r) : null;
    },
    async slugTaken(organizationId, slug) {
      return slugTaken.get(organizationId, slug) !== undefined;
    },
    async createIngestKey(k, receipt) {
      db.transaction(() => {
        db.prepare(
          `INSERT INTO ingest_keys (id, project_id, name, key_hash, key_prefix, created_at, expires_at, revoked_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        ).run(
          k.id,
          k.projectId,
          k.name,
          k.keyHash,
          k.keyPrefix,
          k.createdAt,
          k.expiresAt,
          k.revokedAt,
        );
        if (receipt) writeReceipt(receipt);
      })();
    },
    async ingestKeyByHash(hash) {
      const r = db
        .prepare<[string], IngestKeyDbRow>(
          `SELECT ${INGEST_KEY_COLUMNS} FROM ingest_keys WHERE key_hash = ?`,
        )
        .get(hash);
      return r ? toIngestKey(r) : null;
    },
  };
}
