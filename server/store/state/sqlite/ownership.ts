import type { Db } from '../../sqlite/database';
import type { OwnershipRecord, OwnershipStore } from '../../../core/store/state/ownership';
import { ownershipAfter, toOwnership, type OwnershipDbRow } from '../../rows/ownership';

export function sqliteOwnership(db: Db): OwnershipStore {
  const select = db.prepare<[string], OwnershipDbRow>(
    'SELECT rules, codeowners, updated_at FROM issue_ownership WHERE project_id = ?',
  );
  const upsert = db.prepare(
    `INSERT INTO issue_ownership (project_id, rules, codeowners, updated_at, updated_by)
     VALUES (@projectId, @rules, @codeowners, @at, @by)
     ON CONFLICT (project_id) DO UPDATE SET rules = excluded.rules,
       codeowners = excluded.codeowners, updated_at = excluded.updated_at,
       updated_by = excluded.updated_by`,
  );
  const read = (projectId: string): OwnershipRecord =>
    toOwnership(projectId, select.get(projectId) ?? null);
  const setTx = db.transaction((c: Parameters<OwnershipStore['set']>[0]): OwnershipRecord => {
    const current = read(c.projectId);
    const next = ownershipAfter(current, c);
    if (next === null) return current;
    upsert.run({
      projectId: c.projectId,
      rules: next.rules,
      codeowners: next.codeowners,
      at: c.at,
      by: c.by,
    });
    return next;
  });
  return {
    async get(projectId) {
      return read(projectId);
    },
    async set(change) {
      return setTx(change);
    },
  };
}
