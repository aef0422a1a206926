import type { IdempotencyReceipt } from './idempotency';
import type { OrgRole } from '../../../domain/org-role';

export interface ProjectsStore {
  /** With a receipt, the replay record is written in the same transaction as the project. */
  create(row: ProjectRow, receipt?: IdempotencyReceipt | null): Promise<void>;
  /**
   * Creates the project in one transaction with the check that its organization holds fewer
   * than `maxProjects`, so concurrent creates cannot pass the plan's limit. False (nothing
   * written) when it already holds `maxProjects`.
   */
  createWithinLimit(
    row: ProjectRow,
    maxProjects: number,
    receipt?: IdempotencyReceipt | null,
  ): Promise<boolean>;
  readableBy(accountId: string): Promise<ReadableProject[]>;
  readable(accountId: string, projectId: string): Promise<ReadableProject | null>;
  slugTaken(organizationId: string, slug: string): Promise<boolean>;
  createIngestKey(
    row: IngestKeyRow & { keyHash: string },
    receipt?: IdempotencyReceipt | null,
  ): Promise<void>;
  ingestKeyByHash(keyHash: string): Promise<IngestKeyRow | null>;
}

export type ProjectRow = {
  id: string;
  organizationId: string;
  slug: string;
  name: string;
  createdAt: number;
};

/** A project together with the caller's role in its organization. */
export type ReadableProject = ProjectRow & { role: OrgRole };

export type IngestKeyRow = {
  id: string;
  projectId: string;
  name: string;
  keyPrefix: string;
  createdAt: number;
  expiresAt: number | null;
  revokedAt: number | null;
};
