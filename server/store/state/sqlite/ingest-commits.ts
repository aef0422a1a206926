import { exceededLimit } from '../../../domain/usage';
import type {
  IngestCommit,
  IngestCommitStore,
  JournalEntry,
} from '../../../core/store/state/ingest-commits';
import type { AcceptResult } from '../../../core/store/telemetry/ingest';
import type { Db } from '../../sqlite/database';
import { allRows } from '../../sqlite/sqlite-sql';
import { accountUsageStatement, toUsageByStream, type StreamUsageDbRow } from '../../rows/usage';

/**
 * The state side of a journaled ingest on SQLite (see core/store/state/ingest-commits.ts):
 * the journal here; `commitBatch` is the SQLite ingest's own transaction with the logs
 * counted instead of stored, which ends the journal entry (the assembler wires it).
 */
export function sqliteIngestCommits(
  db: Db,
  commitBatch: (c: IngestCommit) => AcceptResult,
): IngestCommitStore {
  const s = {
    begin: db.prepare(
      'INSERT INTO ingest_journal (batch_id, project_id, started_at) VALUES (?, ?, ?)',
    ),
    end: db.prepare('DELETE FROM ingest_journal WHERE batch_id = ?'),
    groupId: db.prepare<[string, string], { id: string }>(
      'SELECT id FROM issues WHERE project_id = ? AND fingerprint = ?',
    ),
    isBegun: db.prepare<[string], { one: number }>(
      'SELECT 1 AS one FROM ingest_journal WHERE batch_id = ?',
    ),
    unfinished: db.prepare<[], JournalEntry>(
      `SELECT batch_id AS batchId, project_id AS projectId, started_at AS startedAt
       FROM ingest_journal ORDER BY started_at, batch_id`,
    ),
  };
  return {
    async quotaExceeded(quota, added) {
      const usage = toUsageByStream(
        allRows<StreamUsageDbRow>(db, accountUsageStatement(quota.accountId, quota.periodStart)),
      );
      return exceededLimit(usage, added, quota.quotas);
    },
    async groupIds(projectId, fingerprints) {
      const found = new Map<string, string>();
      for (const f of new Set(fingerprints)) {
        const row = s.groupId.get(projectId, f);
        if (row) found.set(f, row.id);
      }
      return found;
    },
    async begin(e) {
      s.begin.run(e.batchId, e.projectId, e.startedAt);
    },
    async commit(c) {
      return commitBatch(c);
    },
    async isBegun(batchId) {
      return s.isBegun.get(batchId) !== undefined;
    },
    async unfinished() {
      return s.unfinished.all();
    },
    async end(batchId) {
      s.end.run(batchId);
    },
  };
}
