import type { IngestKeyRow, ProjectRow, ReadableProject } from '../../core/store/state/projects';
import { raw, sql, type SqlFragment } from './sql';
import type { OrgRole } from '../../domain/org-role';

/** A project joined with the reader's membership role. */
export type ProjectDbRow = {
  id: string;
  organization_id: string;
  slug: string;
  name: string;
  created_at: number;
  role: OrgRole;
};

export const toProject = (r: ProjectDbRow): ReadableProject => ({
  id: r.id,
  organizationId: r.organization_id,
  slug: r.slug,
  name: r.name,
  createdAt: r.created_at,
  role: r.role,
});

export type IngestKeyDbRow = {
  id: string;
  project_id: string;
  name: string;
  key_prefix: string;
  created_at: number;
  expires_at: number | null;
  revoked_at: number | null;
};

/** The key's columns without its hash. */
export const INGEST_KEY_COLUMNS =
  'id, project_id, name, key_prefix, created_at, expires_at, revoked_at';

export const toIngestKey = (r: IngestKeyDbRow): IngestKeyRow => ({
  id: r.id,
  projectId: r.project_id,
  name: r.name,
  keyPrefix: r.key_prefix,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  revokedAt: r.revoked_at,
});

/** The projects the account reads, with its role in each (`p` and `m`). */
export const readableProjects = (accountId: string): SqlFragment =>
  sql`SELECT p.id, p.organization_id, p.slug, p.name, p.created_at, m.role
    FROM projects p
    JOIN memberships m ON m.organization_id = p.organization_id AND m.account_id = ${accountId}`;

export const insertProject = (p: ProjectRow): SqlFragment =>
  sql`INSERT INTO projects (id, organization_id, slug, name, created_at)
    VALUES (${p.id}, ${p.organizationId}, ${p.slug}, ${p.name}, ${p.createdAt})`;

export const projectWithSlug = (organizationId: string, slug: string): SqlFragment =>
  sql`SELECT 1 FROM projects WHERE organization_id = ${organizationId} AND slug = ${slug}`;

export const projectCount = (organizationId: string): SqlFragment =>
  sql`SELECT COUNT(*) AS n FROM projects WHERE organization_id = ${organizationId}`;

export const insertIngestKey = (k: IngestKeyRow & { keyHash: string }): SqlFragment =>
  sql`INSERT INTO ingest_keys
      (id, project_id, name, key_hash, key_prefix, created_at, expires_at, revoked_at)
    VALUES (${k.id}, ${k.projectId}, ${k.name}, ${k.keyHash}, ${k.keyPrefix}, ${k.createdAt},
      ${k.expiresAt}, ${k.revokedAt})`;

export const ingestKeyByHash = (hash: string): SqlFragment =>
  sql`SELECT ${raw(INGEST_KEY_COLUMNS)} FROM ingest_keys WHERE key_hash = ${hash}`;
