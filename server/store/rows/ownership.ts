import type { OwnershipRecord } from '../../core/store/state/ownership';
import { sql, type SqlFragment } from './sql';

export type OwnershipDbRow = { rules: string; codeowners: string; updated_at: number };

/** The stored texts, or the empty record of a project that never set them. */
export const toOwnership = (projectId: string, r: OwnershipDbRow | null): OwnershipRecord =>
  r
    ? { projectId, rules: r.rules, codeowners: r.codeowners, updatedAt: r.updated_at }
    : { projectId, rules: '', codeowners: '', updatedAt: null };

/**
 * The record after a change, or null when no text really changes (then nothing is written
 * and `updatedAt` stays).
 */
export function ownershipAfter(
  current: OwnershipRecord,
  change: { rules?: string; codeowners?: string; at: number },
): OwnershipRecord | null {
  const rules = change.rules ?? current.rules;
  const codeowners = change.codeowners ?? current.codeowners;
  if (rules === current.rules && codeowners === current.codeowners) return null;
  return { projectId: current.projectId, rules, codeowners, updatedAt: change.at };
}

export const selectOwnership = (projectId: string): SqlFragment =>
  sql`SELECT rules, codeowners, updated_at FROM issue_ownership WHERE project_id = ${projectId}`;

/** Writes the record `ownershipAfter` made. */
export const upsertOwnership = (next: OwnershipRecord, by: string): SqlFragment =>
  sql`INSERT INTO issue_ownership (project_id, rules, codeowners, updated_at, updated_by)
    VALUES (${next.projectId}, ${next.rules}, ${next.codeowners}, ${next.updatedAt}, ${by})
    ON CONFLICT (project_id) DO UPDATE SET rules = excluded.rules,
      codeowners = excluded.codeowners, updated_at = excluded.updated_at,
      updated_by = excluded.updated_by`;
