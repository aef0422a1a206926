import type { IngestKeyRow, ReadableProject } from '../../core/store/state/projects';
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
