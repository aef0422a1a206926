import type { Db } from '../database';
import type { OwnershipRecord, OwnershipStore } from '../store';

type OwnershipDbRow = { rules: string; codeowners: string; updated_at: number };

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
  const read = (projectId: string): OwnershipRecord => {
    const r = select.get(projectId);
    return r
      ? { projectId, rules: r.rules, codeowners: r.codeowners, updatedAt: r.updated_at }
      : { projectId, rules: '', codeowners: '', updatedAt: null };
  };
  const setTx = db.transaction((c: Parameters<OwnershipStore['set']>[0]): OwnershipRecord => {
    const current = read(c.projectId);
    const rules = c.rules ?? current.rules;
    const codeowners = c.codeowners ?? current.codeowners;
    if (rules === current.rules && codeowners === current.codeowners) return current;
    upsert.run({ projectId: c.projectId, rules, codeowners, at: c.at, by: c.by });
    return { projectId: c.projectId, rules, codeowners, updatedAt: c.at };
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
