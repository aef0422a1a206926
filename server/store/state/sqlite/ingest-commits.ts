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
 * How long a committed batch stays in the journal: the ledger a restore checks a telemetry
 * copy against (every batch begun since `ingest_ledger.complete_since` and committed is
 * there). It need only reach back past the longest a batch is in flight (seconds) before a
 * backup's state copy; an hour is ample, and keeps the table at an hour of batches (180,000
 * rows at 50 batches a second).
 */
export const LEDGER_KEEP_MS = 60 * 60 * 1000;
/** How often `begin` prunes older committed entries. */
const PRUNE_EVERY_MS = 60 * 1000;

/**
 * The state side of a journaled ingest on SQLite (see core/store/state/ingest-commits.ts):
 * the journal here; `commitBatch` is the SQLite ingest's own transaction with the logs
 * counted instead of stored, which marks the journal entry committed (the assembler wires it).
 */
export function sqliteIngestCommits(
  db: Db,
  commitBatch: (c: IngestCommit) => AcceptResult,
  now: () => number = Date.now,
): IngestCommitStore {
  const s = {
    begin: db.prepare(
      'INSERT INTO ingest_journal (batch_id, project_id, started_at) VALUES (?, ?, ?)',
    ),
    end: db.prepare('DELETE FROM ingest_journal WHERE batch_id = ? AND committed_at IS NULL'),
    groupId: db.prepare<[string, string], { id: string }>(
      'SELECT id FROM issues WHERE project_id = ? AND fingerprint = ?',
    ),
    isBegun: db.prepare<[string], { one: number }>(
      'SELECT 1 AS one FROM ingest_journal WHERE batch_id = ? AND committed_at IS NULL',
    ),
    unfinished: db.prepare<[], JournalEntry>(
      `SELECT batch_id AS batchId, project_id AS projectId, started_at AS startedAt
       FROM ingest_journal WHERE committed_at IS NULL ORDER BY started_at, batch_id`,
    ),
    prune: db.prepare(
      'DELETE FROM ingest_journal WHERE committed_at IS NOT NULL AND started_at < ?',
    ),
    moveHorizon: db.prepare(
      'UPDATE ingest_ledger SET complete_since = max(complete_since, ?) WHERE id = 1',
    ),
    ledger: db.prepare<[], { complete_since: number; sweep_pending: number }>(
      'SELECT complete_since, sweep_pending FROM ingest_ledger WHERE id = 1',
    ),
    committedAmong: db.prepare<[string], { batch_id: string }>(
      `SELECT batch_id FROM ingest_journal
       WHERE committed_at IS NOT NULL AND batch_id IN (SELECT value FROM json_each(?))`,
    ),
    sweepDone: db.prepare('UPDATE ingest_ledger SET sweep_pending = 0 WHERE id = 1'),
  };
  // Entries are pruned oldest first and the horizon moved in the same transaction, so the
  // ledger is complete since `complete_since` at every moment a backup may copy it.
  const prune = db.transaction((cutoff: number) => {
    s.prune.run(cutoff);
    s.moveHorizon.run(cutoff);
  });
  let prunedAt = 0;
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
      const at = now();
      if (at - prunedAt >= PRUNE_EVERY_MS) {
        prunedAt = at;
        prune(at - LEDGER_KEEP_MS);
      }
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
    async sweepPending() {
      const row = s.ledger.get();
      return row && row.sweep_pending !== 0 ? { completeSince: row.complete_since } : null;
    },
    async committedAmong(batchIds) {
      if (batchIds.length === 0) return new Set();
      return new Set(s.committedAmong.all(JSON.stringify(batchIds)).map((r) => r.batch_id));
    },
    async sweepDone() {
      s.sweepDone.run();
    },
  };
}
