import { exceededLimit } from '../../../domain/usage';
import type { IngestCommitStore, JournalEntry } from '../../../core/store/state/ingest-commits';
import { acceptResult } from '../../rows/accepted-items';
import { accountUsageStatement, toUsageByStream, type StreamUsageDbRow } from '../../rows/usage';
import { sql } from '../../rows/sql';
import { admitNewItems, countStored, storeOccurrences } from '../../postgres/batch-counts';
import type { PgContext } from '../../postgres/pg-context';
import { ensurePartitions } from '../../postgres/pg-partitions';
import { asStoredText } from '../../postgres/pg-text';
import type { SessionLocks } from '../../postgres/session-locks';

/**
 * How long a committed batch stays in the journal: the ledger a restore checks a telemetry
 * copy against (as on SQLite, state/sqlite/ingest-commits.ts).
 */
const LEDGER_KEEP_MS = 60 * 60 * 1000;
/** How often `begin` prunes older committed entries. */
const PRUNE_EVERY_MS = 60 * 1000;

/**
 * The state side of a journaled ingest on PostgreSQL (see core/store/state/ingest-commits.ts),
 * for telemetry in ClickHouse: the journal, and a commit that counts a batch with the same
 * statements as the PostgreSQL-only ingest (postgres/batch-counts.ts), keeping of the
 * occurrences only each group's first and latest (the issue reads show them).
 *
 * Several instances share the database: `exclusive` takes a lock per project across them for a
 * batch's whole journaled write, and the commit takes its account's lock, as the
 * PostgreSQL-only ingest does, so the quota is checked against usage no other instance is
 * adding to. A commit whose entry is no longer begun (taken back meanwhile) changes nothing.
 */
export function pgIngestCommits(
  ctx: PgContext,
  locks: SessionLocks,
  now: () => number = Date.now,
): IngestCommitStore {
  const { db, schema } = ctx;
  let prunedAt = 0;

  // Entries are pruned oldest first and the horizon moved in the same transaction, so the
  // ledger is complete since `complete_since` at every moment.
  const prune = (cutoff: number) =>
    db.tx(async (tx) => {
      await tx.run(
        sql`DELETE FROM ingest_journal WHERE committed_at IS NOT NULL AND started_at < ${cutoff}`,
      );
      await tx.run(
        sql`UPDATE ingest_ledger SET complete_since = GREATEST(complete_since, ${cutoff}) WHERE id = 1`,
      );
    });

  return {
    exclusive: (projectId, fn) => locks.exclusive(`ingest:${projectId}`, fn),

    async quotaExceeded(quota, added) {
      const usage = toUsageByStream(
        await db.rows<StreamUsageDbRow>(accountUsageStatement(quota.accountId, quota.periodStart)),
      );
      return exceededLimit(usage, added, quota.quotas);
    },

    async groupIds(projectId, fingerprints) {
      const found = new Map<string, string>();
      const wanted = [...new Set(fingerprints)];
      if (wanted.length === 0) return found;
      const rows = await db.rows<{ id: string; fingerprint: string }>(
        sql`SELECT id, fingerprint FROM issues
          WHERE project_id = ${projectId} AND fingerprint = ANY(${wanted}::text[])`,
      );
      // Read back as PostgreSQL stores text (a lone surrogate becomes U+FFFD).
      const byStored = new Map(rows.map((r) => [r.fingerprint, r.id]));
      for (const f of wanted) {
        const id = byStored.get(asStoredText(f));
        if (id) found.set(f, id);
      }
      return found;
    },

    async begin(e) {
      const at = now();
      if (at - prunedAt >= PRUNE_EVERY_MS) {
        prunedAt = at;
        await prune(at - LEDGER_KEEP_MS);
      }
      await db.run(sql`INSERT INTO ingest_journal (batch_id, project_id, started_at)
        VALUES (${e.batchId}, ${e.projectId}, ${e.startedAt})`);
    },

    async commit(c) {
      const p = c.batch.projectId;
      const issues = c.elsewhere.issues ?? [];
      // Months without a partition yet are created before the transaction (that takes a lock
      // on the parent table, which must not be held for the whole commit).
      if (issues.length > 0)
        await ensurePartitions(
          db,
          schema,
          'issue_occurrences',
          issues.map((i) => i.occurredAt),
        );
      return db.tx(async (tx) => {
        await tx.run(sql`SELECT pg_advisory_xact_lock(hashtext(${c.quota.accountId}))`);
        const { logs = [], spans = [], actions = [], metrics = [] } = c.elsewhere;
        const { groups, newItems, items, added } = await admitNewItems(
          tx,
          p,
          c.quota,
          { issues, logs, spans, actions, metrics },
          (i) => i.groupId,
        );
        if (c.batchId) {
          const ended = await tx.run(sql`UPDATE ingest_journal SET committed_at = ${now()}
            WHERE batch_id = ${c.batchId} AND committed_at IS NULL`);
          if (ended !== 1)
            throw new Error(`ingest batch ${c.batchId} was taken back before its commit`);
        }
        if (issues.length > 0)
          await storeOccurrences(tx, p, issues, groups, c.receivedAt, 'first-and-latest');
        const contextUpdated = await countStored(tx, p, c.batch, items, added, c.receivedAt);
        return acceptResult(c.batch, newItems, contextUpdated);
      });
    },

    async isBegun(batchId) {
      return (
        (await db.one(
          sql`SELECT 1 AS one FROM ingest_journal WHERE batch_id = ${batchId} AND committed_at IS NULL`,
        )) !== null
      );
    },

    unfinished: () =>
      db.rows<JournalEntry>(sql`SELECT batch_id AS "batchId", project_id AS "projectId",
          started_at AS "startedAt"
        FROM ingest_journal WHERE committed_at IS NULL ORDER BY started_at, batch_id`),

    async end(batchId) {
      await db.run(
        sql`DELETE FROM ingest_journal WHERE batch_id = ${batchId} AND committed_at IS NULL`,
      );
    },

    async sweepPending() {
      const row = await db.one<{ complete_since: number; sweep_pending: number }>(
        sql`SELECT complete_since, sweep_pending FROM ingest_ledger WHERE id = 1`,
      );
      return row && row.sweep_pending !== 0 ? { completeSince: row.complete_since } : null;
    },

    async committedAmong(batchIds) {
      if (batchIds.length === 0) return new Set();
      const rows = await db.rows<{ batch_id: string }>(sql`SELECT batch_id FROM ingest_journal
        WHERE committed_at IS NOT NULL AND batch_id = ANY(${[...batchIds]}::text[])`);
      return new Set(rows.map((r) => r.batch_id));
    },

    async sweepDone() {
      await db.run(sql`UPDATE ingest_ledger SET sweep_pending = 0 WHERE id = 1`);
    },
  };
}
