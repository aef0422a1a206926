import { randomUUID } from 'node:crypto';
import { exceededLimit, utcDay, type Stream } from '../../../domain/usage';
import { indexAttributes, type IndexedAttributes } from '../../../domain/attribute-index';
import { logTriageKey } from '../../../domain/log-triage-key';
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
  type IngestStore,
} from '../../../core/store/telemetry/ingest';
import { activityWriter } from '../../sqlite/issue-activity-writer';
import { countOccurrenceHour } from './occurrences';
import type { LogAttributeIndex, LogToIndex } from './log-attribute-index';
import type { ReleaseRollup } from './release-rollup';
import type { TraceRollup } from './trace-parts';
import type { VolumeRollup } from './volume-rollup';
import { accountUsageStatement, toUsageByStream, type StreamUsageDbRow } from '../../rows/usage';
import { allRows } from '../../sqlite/sqlite-sql';

const json = (v: unknown) => JSON.stringify(v);

/**
 * Items another engine (ClickHouse) already holds under a journaled batch: the transaction
 * counts them (usage, rollups, contexts) instead of storing them, and ends the batch's
 * journal entry (store/journaled-ingest.ts).
 */
export type Elsewhere = { batchId: string | null; items: ItemsElsewhere };

export type SqliteIngest = IngestStore & {
  /**
   * `accept` with some kinds kept elsewhere: one transaction stores the batch's items of the
   * other kinds, counts those of `elsewhere.items` as new, and ends the journal entry of
   * `elsewhere.batchId`.
   */
  acceptWithItemsElsewhere(
    batch: Batch,
    receivedAt: number,
    quota: Parameters<IngestStore['accept']>[2],
    elsewhere: Elsewhere,
  ): AcceptResult;
};

export function sqliteTelemetry(
  db: Db,
  attributeIndex: LogAttributeIndex,
  rollUpSpans: TraceRollup,
  rollUpReleases: ReleaseRollup,
  rollUpVolume: VolumeRollup,
): SqliteIngest {
  const s = {
    insertLog: db.prepare(`INSERT INTO logs (id, project_id, occurred_at, severity, source, message,
      attributes, environment, release, service_name, trace_id, span_id, sdk_name, sdk_version, bytes, received_at, triage_key,
      attributes_indexed)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1)
      ON CONFLICT DO NOTHING`),
    occurrenceExists: db.prepare('SELECT 1 FROM issue_occurrences WHERE project_id = ? AND id = ?'),
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
    insertSpan:
      db.prepare(`INSERT INTO spans (id, project_id, trace_id, span_id, parent_span_id, name,
      operation, kind, service_name, environment, release, started_at, duration_ms, status, status_message,
      attributes, events, sdk_name, sdk_version, received_at, rolled_up)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1)
      ON CONFLICT DO NOTHING`),
    insertAction:
      db.prepare(`INSERT INTO actions (id, project_id, occurred_at, name, kind, distinct_id,
      session_id, properties, environment, release, service_name, trace_id, span_id, sdk_name, sdk_version, received_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT DO NOTHING`),
    insertMetric:
      db.prepare(`INSERT INTO metric_samples (id, event_id, project_id, occurred_at, name, kind,
      value, unit, temporality, attributes, environment, release, service_name, trace_id, span_id,
      sdk_name, sdk_version, bytes, received_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT DO NOTHING`),
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

  const acceptTx = db.transaction(
    (
      batch: Batch,
      receivedAt: number,
      quota: Parameters<IngestStore['accept']>[2],
      logIndex: readonly IndexedAttributes[],
      elsewhere: Elsewhere | null,
    ): AcceptResult => {
      const p = batch.projectId;
      // Inserts skip ids already stored (ON CONFLICT DO NOTHING); the quota is checked on what
      // was really added, and a throw rolls the whole transaction back.
      const toIndex: LogToIndex[] = [];
      const logs =
        elsewhere?.items.logs ??
        batch.logs.filter((l, i) => {
          const r = s.insertLog.run(
            l.id,
            p,
            l.occurredAt,
            l.severity,
            l.source,
            l.message,
            l.attributesJson,
            l.environment,
            l.release,
            l.service_name,
            l.traceId,
            l.spanId,
            l.sdk.name,
            l.sdk.version,
            l.bytes,
            receivedAt,
            logTriageKey(l.source, l.service_name, l.message),
          );
          if (r.changes !== 1) return false;
          const indexed = logIndex[i] ?? indexAttributes(l.attributes);
          const seq = Number(r.lastInsertRowid);
          toIndex.push({ seq, occurredAt: l.occurredAt, severity: l.severity, indexed });
          return true;
        });
      if (toIndex.length > 0) attributeIndex.write(p, toIndex);
      const seenOccurrences = new Set<string>();
      const grouped = elsewhere?.items.issues;
      const issues =
        grouped ??
        batch.issues.filter((i) => {
          if (seenOccurrences.has(i.id) || s.occurrenceExists.get(p, i.id) !== undefined)
            return false;
          seenOccurrences.add(i.id);
          return true;
        });
      const groupOf = grouped
        ? grouped.map((i) => storeOccurrence(p, i, receivedAt, i.groupId))
        : issues.map((i) => storeOccurrence(p, i, receivedAt, null));
      const spans =
        elsewhere?.items.spans ??
        batch.spans.filter(
          (sp) =>
            s.insertSpan.run(
              sp.id,
              p,
              sp.traceId,
              sp.spanId,
              sp.parentSpanId,
              sp.name,
              sp.operation,
              sp.spanKind,
              sp.service_name,
              sp.environment,
              sp.release,
              sp.startedAt,
              sp.durationMs,
              sp.status,
              sp.statusMessage,
              json(sp.attributes),
              json(sp.events),
              sp.sdk.name,
              sp.sdk.version,
              receivedAt,
            ).changes === 1,
        );
      // Trace discovery of spans kept elsewhere is that engine's own.
      if (spans.length > 0 && !elsewhere?.items.spans) rollUpSpans(p, spans);
      const actions =
        elsewhere?.items.actions ??
        batch.actions.filter(
          (a) =>
            s.insertAction.run(
              a.id,
              p,
              a.occurredAt,
              a.name,
              a.actionKind,
              a.distinctId,
              a.sessionId,
              json(a.properties),
              a.environment,
              a.release,
              a.service_name,
              a.traceId,
              a.spanId,
              a.sdk.name,
              a.sdk.version,
              receivedAt,
            ).changes === 1,
        );
      const metrics =
        elsewhere?.items.metrics ??
        batch.metrics.filter(
          (m) =>
            s.insertMetric.run(
              randomUUID(),
              m.id,
              p,
              m.occurredAt,
              m.name,
              m.metricKind,
              m.value,
              m.unit,
              m.temporality,
              m.attributesJson,
              m.environment,
              m.release,
              m.service_name,
              m.traceId,
              m.spanId,
              m.sdk.name,
              m.sdk.version,
              m.bytes,
              receivedAt,
            ).changes === 1,
        );
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
      if (elsewhere?.batchId) s.endJournal.run(Date.now(), elsewhere.batchId);

      return acceptResult(batch, newItems, contextUpdated);
    },
  );

  /**
   * Stores an occurrence and grows its group. `groupId`: the occurrences are kept elsewhere
   * (ClickHouse), the group's id was chosen with them, and only the group's first and latest
   * occurrences stay here, for the issue reads that show them.
   */
  function storeOccurrence(
    projectId: string,
    i: IssueEvent,
    receivedAt: number,
    groupId: string | null,
  ): string {
    let issue = s.issueByFingerprint.get(projectId, i.fingerprint);
    if (!issue) {
      const id = groupId ?? randomUUID();
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
    if (groupId !== null) s.keepFirstAndLatest.run({ id: issue.id });
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

  return {
    async accept(batch, receivedAt, quota) {
      const logIndex = batch.logs.map((l) => indexAttributes(l.attributes));
      if (logIndex.length > 0) attributeIndex.ensureIds(batch.projectId, logIndex);
      return acceptTx(batch, receivedAt, quota, logIndex, null);
    },
    acceptWithItemsElsewhere(batch, receivedAt, quota, elsewhere) {
      return acceptTx(batch, receivedAt, quota, [], elsewhere);
    },
  };
}
