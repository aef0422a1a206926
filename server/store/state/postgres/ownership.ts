import type { OwnershipStore } from '../../../core/store/state/ownership';
import { ownershipAfter, toOwnership, type OwnershipDbRow } from '../../rows/ownership';
import type { PgDb } from '../../postgres/pg-database';

const SELECT = 'SELECT rules, codeowners, updated_at FROM issue_ownership WHERE project_id = $1';

export function pgOwnership(db: PgDb): OwnershipStore {
  return {
    async get(projectId) {
      return toOwnership(projectId, await db.one<OwnershipDbRow>(SELECT, [projectId]));
    },
    set(c) {
      return db.tx(async (sql) => {
        // The project's row lock orders concurrent changes (also the first one, when no
        // ownership row exists yet), so each reads what the one before it wrote.
        await sql.run('SELECT 1 FROM projects WHERE id = $1 FOR NO KEY UPDATE', [c.projectId]);
        const current = toOwnership(
          c.projectId,
          await sql.one<OwnershipDbRow>(SELECT, [c.projectId]),
        );
        const next = ownershipAfter(current, c);
        if (next === null) return current;
        await sql.run(
          `INSERT INTO issue_ownership (project_id, rules, codeowners, updated_at, updated_by)
           VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (project_id) DO UPDATE SET rules = excluded.rules,
             codeowners = excluded.codeowners, updated_at = excluded.updated_at,
             updated_by = excluded.updated_by`,
          [c.projectId, next.rules, next.codeowners, c.at, c.by],
        );
        return next;
      });
    },
  };
}
