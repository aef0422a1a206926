import type { OwnershipStore } from '../../../core/store/state/ownership';
import {
  ownershipAfter,
  selectOwnership,
  toOwnership,
  upsertOwnership,
  type OwnershipDbRow,
} from '../../rows/ownership';
import type { PgDb } from '../../postgres/pg-database';
import { sql } from '../../rows/sql';

export function pgOwnership(db: PgDb): OwnershipStore {
  return {
    async get(projectId) {
      return toOwnership(projectId, await db.one<OwnershipDbRow>(selectOwnership(projectId)));
    },
    set(c) {
      return db.tx(async (tx) => {
        // The project's row lock orders concurrent changes (also the first one, when no
        // ownership row exists yet), so each reads what the one before it wrote.
        await tx.run(sql`SELECT 1 FROM projects WHERE id = ${c.projectId} FOR NO KEY UPDATE`);
        const current = toOwnership(
          c.projectId,
          await tx.one<OwnershipDbRow>(selectOwnership(c.projectId)),
        );
        const next = ownershipAfter(current, c);
        if (next === null) return current;
        await tx.run(upsertOwnership(next, c.by));
        return next;
      });
    },
  };
}
