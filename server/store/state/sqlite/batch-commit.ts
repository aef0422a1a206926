import { exceededLimit, utcDay, type Stream } from '../../../domain/usage';
import type { Batch, IssueEvent } from '../../../core/batch';
import type { ItemsElsewhere } from '../../../core/store/state/ingest-commits';
import type { Db } from '../../sqlite/database';
import {
  acceptResult,
  contextsOf,
  droppedToCount,
  storedItems,
  usageAdded,
} from '../../rows/accepted-items';
import {
  QuotaExceededError,
  type AcceptResult,
  type QuotaContext,
} from '../../../core/store/telemetry/ingest';
import { activityWriter } from '../../sqlite/issue-activity-writer';
import { countOccurrenceHour } from './occurrence-hours';
import type { ReleaseRollup } from './release-rollup';
import type { VolumeRollup } from './volume-rollup';
import { accountUsageStatement, toUsageByStream, type StreamUsageDbRow } from '../../rows/usage';
import { allRows } from '../../sqlite/sqlite-sql';

const json = (v: unknown) => JSON.stringify(v);

/**
 * The state side of a batch whose telemetry ClickHouse holds (store/journaled-ingest.ts): one
 * SQLite transaction counts the new items written there (usage, contexts, release and volume
 * rollups, issue groups with their first and latest occurrence) under the exact quota, and
 * ends the batch's journal entry (`batchId`; null when nothing new was written).
 */
export type SqliteBatchCommit = (
  batch: Batch,
  receivedAt: number,
  quota: QuotaContext,
  elsewhere: { batchId: string | null; items: ItemsElsewhere },
) => AcceptResult;

export function sqliteBatchCommit(
  db: Db,
  rollUpReleases: ReleaseRollup,
  rollUpVolume: VolumeRollup,
): SqliteBatchCommit {
  const s = {
    issueByFingerprint: db.prepare<
      [string, string],
      { id: string; status: string; last_seen_at: number }
    >('SELECT id, status, last_seen_at FROM issues WHERE project_id = ? AND fingerprint = ?'),
    insertIssue:
      db.prepare(`INSERT INTO issues (id, project_id, fingerprint, status, occurrence_count,
      first_seen_at, last_seen_at, latest_occurrence_seq) VALUES (?, ?, ?, 'unresolved', 0, ?, ?, 0)`),
    insertOccurrence:
      db.prepare(`INSERT INTO issue_occurrences (id, project_id, issue_id, occurred_at,
      severity, title, message, exception, stack_trace, attributes, environment, release, service_name,
      trace_id, span_id, breadcrumbs, breadcrumbs_truncated, sdk_name, sdk_version, received_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
    // The group shows its newest occurrence; an older one arriving late changes only counts and first_seen_at.
    // A resolved issue that occurs again (not older than anything seen) is a regression and becomes
    // unresolved; an older occurrence arriving late does not reopen it; archived stays archived.
    updateIssue: db.prepare(`UPDATE issues SET
      occurrence_count = occurrence_count + 1,
      first_seen_at = MIN(first_seen_at, @at),
      latest_occurrence_seq = CASE WHEN latest_occurrence_seq = 0 OR @at >= last_seen_at THEN @seq ELSE latest_occurrence_seq END,
      last_seen_at = MAX(last_seen_at, @at),
      status = CASE WHEN status = 'resolved' AND @at >= last_seen_at THEN 'unresolved' ELSE status END
      WHERE id = @id`),
    insertContext:
      db.prepare(`INSERT OR IGNORE INTO project_contexts (project_id, release, environment,
      service_name, first_seen_at) VALUES (?, ?, ?, ?, ?)`),
    addUsage: db.prepare(`INSERT INTO usage_counters (project_id, day, stream, events, bytes)
      VALUES (@project, @day, @stream, @events, @bytes)
      ON CONFLICT (project_id, day, stream) DO UPDATE SET events = events + @events, bytes = bytes + @bytes`),
    addDropped: db.prepare(`INSERT INTO sdk_dropped_counters (project_id, day, reason, events)
      VALUES (@project, @day, @reason, @events)
      ON CONFLICT (project_id, day, reason) DO UPDATE SET events = events + @events`),
    // The entry stays as the ledger of committed batches (pruned after an hour, see
    // state/sqlite/ingest-commits.ts); a restore checks a telemetry copy against it.
    endJournal: db.prepare('UPDATE ingest_journal SET committed_at = ? WHERE batch_id = ?'),
    keepFirstAndLatest: db.prepare(`DELETE FROM issue_occurrences WHERE issue_id = @id
      AND seq <> (SELECT latest_occurrence_seq FROM issues WHERE id = @id)
      AND seq <> (SELECT seq FROM issue_occurrences WHERE issue_id = @id
        ORDER BY occurred_at, id LIMIT 1)`),
  };

  const writeActivity = activityWriter(db);

  const commitTx = db.transaction(
    (
      batch: Batch,
      receivedAt: number,
      quota: QuotaContext,
      elsewhere: { batchId: string | null; items: ItemsElsewhere },
    ): AcceptResult => {
      const p = batch.projectId;
      const { logs = [], spans = [], actions = [], metrics = [] } = elsewhere.items;
      const issues = elsewhere.items.issues ?? [];
      const groupOf = issues.map((i) => storeOccurrence(p, i, receivedAt, i.groupId));
      const newItems = { issues, issueGroups: groupOf, logs, spans, actions, metrics };
      const items = storedItems(newItems);
      const added = usageAdded(items);
      const exceeded = exceededLimit(
        toUsageByStream(
          allRows<StreamUsageDbRow>(db, accountUsageStatement(quota.accountId, quota.periodStart)),
        ),
        added,
        quota.quotas,
      );
      if (exceeded) throw new QuotaExceededError(exceeded);

      let contextUpdated = false;
      for (const c of contextsOf(items)) {
        const r = s.insertContext.run(p, c.release, c.environment, c.service_name, receivedAt);
        if (r.changes > 0) contextUpdated = true;
      }
      if (items.length > 0) {
        rollUpReleases(p, items);
        rollUpVolume(p, items);
      }
      const day = utcDay(receivedAt);
      for (const [stream, u] of Object.entries(added) as [
        Stream,
        { events: number; bytes: number },
      ][]) {
        if (u.events > 0)
          s.addUsage.run({ project: p, day, stream, events: u.events, bytes: u.bytes });
      }
      for (const d of droppedToCount(batch.dropped, items.length))
        s.addDropped.run({ project: p, day, reason: d.reason, events: d.events });
      if (elsewhere.batchId) s.endJournal.run(Date.now(), elsewhere.batchId);

      return acceptResult(batch, newItems, contextUpdated);
    },
  );

  /**
   * Stores an occurrence and grows its group. The occurrences are kept in ClickHouse and the
   * group's id was chosen with them (`groupId`); only the group's first and latest occurrences
   * stay here, for the issue reads that show them.
   */
  function storeOccurrence(
    projectId: string,
    i: IssueEvent,
    receivedAt: number,
    groupId: string,
  ): string {
    let issue = s.issueByFingerprint.get(projectId, i.fingerprint);
    if (!issue) {
      const id = groupId;
      s.insertIssue.run(id, projectId, i.fingerprint, i.occurredAt, i.occurredAt);
      issue = { id, status: 'unresolved', last_seen_at: i.occurredAt };
    }
    const { lastInsertRowid } = s.insertOccurrence.run(
      i.id,
      projectId,
      issue.id,
      i.occurredAt,
      i.severity,
      i.title,
      i.message,
      i.exception ? json(i.exception) : null,
      i.stackTrace,
      json(i.attributes),
      i.environment,
      i.release,
      i.service_name,
      i.traceId,
      i.spanId,
      i.breadcrumbs ? json(i.breadcrumbs) : null,
      i.breadcrumbsTruncated ? 1 : 0,
      i.sdk.name,
      i.sdk.version,
      receivedAt,
    );
    s.updateIssue.run({ id: issue.id, at: i.occurredAt, seq: Number(lastInsertRowid) });
    s.keepFirstAndLatest.run({ id: issue.id });
    countOccurrenceHour(db, issue.id, i.occurredAt);
    // A regression (see updateIssue) is a status change of its own, made by no account.
    if (issue.status === 'resolved' && i.occurredAt >= issue.last_seen_at)
      writeActivity(
        issue.id,
        projectId,
        { type: 'status', value: 'unresolved', assigneeAccountId: null, assigneeTeamId: null },
        null,
        receivedAt,
      );
    return issue.id;
  }

  return commitTx;
}
