import type { Db } from '../../sqlite/database';
import type { OwnershipRecord, OwnershipStore } from '../../../core/store/state/ownership';
import {
  ownershipAfter,
  selectOwnership,
  toOwnership,
  upsertOwnership,
  type OwnershipDbRow,
} from '../../rows/ownership';
import { firstRow, runStatement } from '../../sqlite/sqlite-sql';

export function sqliteOwnership(db: Db): OwnershipStore {
  const read = (projectId: string): OwnershipRecord =>
    toOwnership(projectId, firstRow<OwnershipDbRow>(db, selectOwnership(projectId)) ?? null);
  const setTx = db.transaction((c: Parameters<OwnershipStore['set']>[0]): OwnershipRecord => {
    const current = read(c.projectId);
    const next = ownershipAfter(current, c);
    if (next === null) return current;
    runStatement(db, upsertOwnership(next, c.by));
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
