import { randomUUID } from 'node:crypto';
import { indexAttributes, type IndexedAttributes } from '../../../domain/attribute-index';
import { logTriageKey } from '../../../domain/log-triage-key';
import { exceededLimit, utcDay, type Stream } from '../../../domain/usage';
import type { Batch, IssueEvent } from '../../../core/batch';
import {
  acceptResult,
  contextsOf,
  droppedToCount,
  storedItems,
  usageAdded,
} from '../../rows/accepted-items';
import type { LogToIndex } from '../../rows/log-index-rows';
import {
  QuotaExceededError,
  type AcceptResult,
  type QuotaContext,
  type IngestStore,
} from '../../../core/store/telemetry/ingest';
import { activityWriter } from '../../postgres/issue-activity-writer';
import { countOccurrenceHours } from './occurrences';
import { byKey } from './key-order';
import { pgLogAttributeWrites, type PgLogAttributeWrites } from './log-attribute-writes';
import type { Sql } from '../../postgres/pg-database';
import {
  ensurePartitions,
  forgetPartitions,
  type PartitionedTable,
} from '../../postgres/pg-partitions';
import type { PgContext } from '../../postgres/pg-context';
import { rollUpReleases } from './release-rollup';
import { rollUpTraceParts } from './trace-parts';
import { asStoredText } from '../../postgres/pg-text';
import { accountUsageStatement, toUsageByStream, type StreamUsageDbRow } from '../../rows/usage';
import { rollUpVolume } from './volume-rollup';
import { sql } from '../../rows/sql';

const json = (v: unknown) => JSON.stringify(v);

/** Items of one stream whose ids this call accepted: the first of each new id, in batch order. */
function firstNew<T extends { id: string }>(items: readonly T[], accepted: Set<string>): T[] {
  return items.filter((it) => accepted.delete(it.id));
}

type IssueState = {
  id: string;
  isNew: boolean;
  status: string;
  occurrenceCount: number;
  firstSeenAt: number;
  lastSeenAt: number;
  latestSeq: number;
};

export function pgTelemetry(ctx: PgContext): IngestStore {
  const { db, schema } = ctx;
  const attributes = pgLogAttributeWrites(db);

  const acceptOnce: IngestStore['accept'] = async (batch, receivedAt, quota) => {
    const logIndex = batch.logs.map((l) => indexAttributes(l.attributes));
    if (logIndex.length > 0) await attributes.ensureIds(batch.projectId, logIndex);
    // Months without a partition yet are created before the transaction (that takes a lock
    // on the parent table, which must not be held for the whole batch).
    const logTimes = batch.logs.map((l) => l.occurredAt);
    const times: [PartitionedTable, number[]][] = [
      ['logs', logTimes],
      ['log_attributes', logTimes],
      ['issue_occurrences', batch.issues.map((i) => i.occurredAt)],
      ['spans', batch.spans.map((s) => s.startedAt)],
      ['actions', batch.actions.map((a) => a.occurredAt)],
      ['metric_samples', batch.metrics.map((m) => m.occurredAt)],
    ];
    for (const [table, at] of times)
      if (at.length > 0) await ensurePartitions(db, schema, table, at);
    return db.tx((tx) => acceptIn(tx, attributes, batch, receivedAt, quota, logIndex));
  };

  return {
    async accept(batch, receivedAt, quota) {
      try {
        return await acceptOnce(batch, receivedAt, quota);
      } catch (err) {
        // 23514: no partition for a row. Retention (another process) dropped a month this
        // process still believed to exist; forget what it knew and create the month again.
        if ((err as { code?: string }).code !== '23514') throw err;
        forgetPartitions(schema);
        return acceptOnce(batch, receivedAt, quota);
      }
    },
  };
}

/** The whole write of one batch, inside its transaction. */
async function acceptIn(
  tx: Sql,
  attributes: PgLogAttributeWrites,
  batch: Batch,
  receivedAt: number,
  quota: QuotaContext,
  logIndex: readonly IndexedAttributes[],
): Promise<AcceptResult> {
  const p = batch.projectId;
  // Batches of projects paid by one account take turns: the quota is checked against usage
  // that no other instance is adding to at the same moment, and the issue groups, trace parts
  // and rollups of a project are read and written by one batch at a time. The lock is held
  // until this transaction ends.
  await tx.run(sql`SELECT pg_advisory_xact_lock(hashtext(${quota.accountId}))`);

  // Which ids are new: the one row per accepted id in `telemetry_ids` decides (the
  // partitioned tables cannot hold a unique index on the id).
  const streams: Stream[] = [];
  const ids: string[] = [];
  const times: number[] = [];
  const add = (stream: Stream, id: string, at: number) => {
    streams.push(stream);
    ids.push(id);
    times.push(at);
  };
  for (const i of batch.issues) add('issues', i.id, i.occurredAt);
  for (const l of batch.logs) add('logs', l.id, l.occurredAt);
  for (const s of batch.spans) add('traces', s.id, s.startedAt);
  for (const a of batch.actions) add('actions', a.id, a.occurredAt);
  for (const m of batch.metrics) add('metrics', m.id, m.occurredAt);
  const accepted = new Map<Stream, Set<string>>(
    (['issues', 'logs', 'traces', 'actions', 'metrics'] as const).map((s) => [s, new Set()]),
  );
  if (ids.length > 0) {
    const rows = await tx.rows<{
      stream: Stream;
      id: string;
    }>(sql`INSERT INTO telemetry_ids (project_id, stream, id, occurred_at)
       SELECT ${p}, * FROM unnest(${streams}::text[], ${ids}::text[], ${times}::bigint[])
       ON CONFLICT DO NOTHING
       RETURNING stream, id`);
    for (const r of rows) accepted.get(r.stream)?.add(r.id);
  }
  const newIds = (s: Stream) => accepted.get(s) ?? new Set<string>();
  const issues = firstNew(batch.issues, newIds('issues'));
  const logs = firstNew(batch.logs, newIds('logs'));
  const spans = firstNew(batch.spans, newIds('traces'));
  const actions = firstNew(batch.actions, newIds('actions'));
  const metrics = firstNew(batch.metrics, newIds('metrics'));

  // The groups the new occurrences join (existing ones locked until commit).
  const groups = await groupIssues(tx, p, issues);
  const newItems = {
    issues,
    issueGroups: issues.map((i) => groups.get(asStoredText(i.fingerprint))?.id ?? ''),
    logs,
    spans,
    actions,
    metrics,
  };
  const items = storedItems(newItems);

  // The quota is checked on what is really added; a throw rolls the transaction back.
  const added = usageAdded(items);
  if (items.length > 0) {
    const exceeded = exceededLimit(
      toUsageByStream(
        await tx.rows<StreamUsageDbRow>(accountUsageStatement(quota.accountId, quota.periodStart)),
      ),
      added,
      quota.quotas,
    );
    if (exceeded) throw new QuotaExceededError(exceeded);
  }

  if (logs.length > 0) {
    const indexOf = new Map(batch.logs.map((l, i) => [l, logIndex[i]]));
    const seqs = await insertLogs(tx, p, logs, receivedAt);
    const toIndex: LogToIndex[] = logs.map((l) => ({
      seq: seqs.get(l.id) ?? 0,
      occurredAt: l.occurredAt,
      severity: l.severity,
      indexed: indexOf.get(l) ?? indexAttributes(l.attributes),
    }));
    await attributes.write(tx, p, toIndex);
  }
  if (issues.length > 0) await storeOccurrences(tx, p, issues, groups, receivedAt);
  if (spans.length > 0) {
    await insertSpans(tx, p, spans, receivedAt);
    await rollUpTraceParts(tx, p, spans);
  }
  if (actions.length > 0) await insertActions(tx, p, actions, receivedAt);
  if (metrics.length > 0) await insertMetrics(tx, p, metrics, receivedAt);

  let contextUpdated = false;
  const contexts = contextsOf(items).sort(byKey((c) => [c.release, c.environment, c.service_name]));
  if (contexts.length > 0) {
    const inserted =
      await tx.rows(sql`INSERT INTO project_contexts (project_id, release, environment, service_name, first_seen_at)
       SELECT ${p}, u.release, u.environment, u.service_name, ${receivedAt}
       FROM unnest(${contexts.map((c) => c.release)}::text[],
       ${contexts.map((c) => c.environment)}::text[],
       ${contexts.map((c) => c.service_name)}::text[]) AS u(release, environment, service_name)
       ON CONFLICT DO NOTHING
       RETURNING 1`);
    contextUpdated = inserted.length > 0;
  }
  if (items.length > 0) {
    await rollUpReleases(tx, p, items);
    await rollUpVolume(tx, p, items);
  }
  const day = utcDay(receivedAt);
  const usage = (Object.entries(added) as [Stream, { events: number; bytes: number }][]).filter(
    ([, u]) => u.events > 0,
  );
  if (usage.length > 0)
    await tx.run(sql`INSERT INTO usage_counters (project_id, day, stream, events, bytes)
       SELECT ${p}, ${day}, * FROM unnest(${usage.map(([s]) => s)}::text[],
       ${usage.map(([, u]) => u.events)}::bigint[], ${usage.map(([, u]) => u.bytes)}::bigint[])
       ON CONFLICT (project_id, day, stream) DO UPDATE SET
         events = usage_counters.events + excluded.events,
         bytes = usage_counters.bytes + excluded.bytes`);
  const dropped = droppedToCount(batch.dropped, items.length).sort(byKey((d) => [d.reason]));
  if (dropped.length > 0)
    await tx.run(sql`INSERT INTO sdk_dropped_counters (project_id, day, reason, events)
       SELECT ${p}, ${day}, * FROM unnest(${dropped.map((d) => d.reason)}::text[],
       ${dropped.map((d) => d.events)}::bigint[])
       ON CONFLICT (project_id, day, reason) DO UPDATE SET
         events = sdk_dropped_counters.events + excluded.events`);

  return acceptResult(batch, newItems, contextUpdated);
}

/**
 * The issue group of each fingerprint of the new occurrences: the stored one, locked for
 * this transaction in fingerprint order, or a new one (created by `storeOccurrences`).
 */
async function groupIssues(
  tx: Sql,
  projectId: string,
  issues: readonly IssueEvent[],
): Promise<Map<string, IssueState>> {
  const groups = new Map<string, IssueState>();
  if (issues.length === 0) return groups;
  const fingerprints = [...new Set(issues.map((i) => i.fingerprint))];
  const rows = await tx.rows<{
    id: string;
    fingerprint: string;
    status: string;
    occurrence_count: number;
    first_seen_at: number;
    last_seen_at: number;
    latest_occurrence_seq: number;
  }>(sql`SELECT id, fingerprint, status, occurrence_count, first_seen_at, last_seen_at,
       latest_occurrence_seq
     FROM issues WHERE project_id = ${projectId} AND fingerprint = ANY(${fingerprints}::text[])
     ORDER BY fingerprint FOR UPDATE`);
  for (const r of rows)
    groups.set(r.fingerprint, {
      id: r.id,
      isNew: false,
      status: r.status,
      occurrenceCount: r.occurrence_count,
      firstSeenAt: r.first_seen_at,
      lastSeenAt: r.last_seen_at,
      latestSeq: r.latest_occurrence_seq,
    });
  for (const i of issues)
    if (!groups.has(asStoredText(i.fingerprint)))
      groups.set(asStoredText(i.fingerprint), {
        id: randomUUID(),
        isNew: true,
        status: 'unresolved',
        occurrenceCount: 0,
        firstSeenAt: i.occurredAt,
        lastSeenAt: i.occurredAt,
        latestSeq: 0,
      });
  return groups;
}

/**
 * Stores new occurrences and applies them to their groups in batch order, with the rules of
 * the SQLite store's single-row update: the group shows its newest occurrence (an older one
 * arriving late changes only counts and first_seen_at); a resolved issue that occurs again,
 * not older than anything seen, is a regression and becomes unresolved (an activity entry
 * made by no account); archived stays archived.
 */
async function storeOccurrences(
  tx: Sql,
  projectId: string,
  issues: readonly IssueEvent[],
  groups: Map<string, IssueState>,
  receivedAt: number,
): Promise<void> {
  const groupOf = (i: IssueEvent) => {
    const g = groups.get(asStoredText(i.fingerprint));
    if (!g) throw new Error('occurrence without a group');
    return g;
  };
  const inserted = await tx.rows<{
    id: string;
    seq: number;
  }>(sql`INSERT INTO issue_occurrences (id, project_id, issue_id, occurred_at, severity, title,
       message, exception, stack_trace, attributes, environment, release, service_name,
       trace_id, span_id, breadcrumbs, breadcrumbs_truncated, sdk_name, sdk_version, received_at)
     SELECT u.id, ${projectId}, u.issue_id, u.occurred_at, u.severity, u.title, u.message,
     u.exception,
       u.stack_trace, u.attributes, u.environment, u.release, u.service_name, u.trace_id,
       u.span_id, u.breadcrumbs, u.breadcrumbs_truncated, u.sdk_name, u.sdk_version, ${receivedAt}
     FROM unnest(${issues.map((i) => i.id)}::text[], ${issues.map((i) => groupOf(i).id)}::text[],
     ${issues.map((i) => i.occurredAt)}::bigint[], ${issues.map((i) => i.severity)}::text[],
     ${issues.map((i) => i.title)}::text[], ${issues.map((i) => i.message)}::text[],
       ${issues.map((i) => (i.exception ? json(i.exception) : null))}::text[],
       ${issues.map((i) => i.stackTrace)}::text[], ${issues.map((i) => json(i.attributes))}::text[],
       ${issues.map((i) => i.environment)}::text[], ${issues.map((i) => i.release)}::text[],
       ${issues.map((i) => i.service_name)}::text[], ${issues.map((i) => i.traceId)}::text[],
       ${issues.map((i) => i.spanId)}::text[],
       ${issues.map((i) => (i.breadcrumbs ? json(i.breadcrumbs) : null))}::text[],
       ${issues.map((i) => (i.breadcrumbsTruncated ? 1 : 0))}::int[],
       ${issues.map((i) => i.sdk.name)}::text[], ${issues.map((i) => i.sdk.version)}::text[])
       WITH ORDINALITY AS u(id, issue_id, occurred_at, severity, title, message, exception,
         stack_trace, attributes, environment, release, service_name, trace_id, span_id,
         breadcrumbs, breadcrumbs_truncated, sdk_name, sdk_version, n)
     ORDER BY u.n
     RETURNING id, seq`);
  const seqOf = new Map(inserted.map((r) => [r.id, r.seq]));

  const regressions: IssueState[] = [];
  for (const i of issues) {
    const g = groupOf(i);
    const at = i.occurredAt;
    // Every rule reads the group as it was before this occurrence.
    const regression = g.status === 'resolved' && at >= g.lastSeenAt;
    if (g.latestSeq === 0 || at >= g.lastSeenAt) g.latestSeq = seqOf.get(i.id) ?? g.latestSeq;
    g.occurrenceCount += 1;
    g.firstSeenAt = Math.min(g.firstSeenAt, at);
    g.lastSeenAt = Math.max(g.lastSeenAt, at);
    if (regression) {
      g.status = 'unresolved';
      regressions.push(g);
    }
  }

  const touched = [...new Set(issues.map(groupOf))];
  const fresh = touched.filter((g) => g.isNew);
  const fingerprintOf = new Map(issues.map((i) => [groupOf(i).id, i.fingerprint]));
  if (fresh.length > 0)
    await tx.run(sql`INSERT INTO issues (id, project_id, fingerprint, status, occurrence_count, first_seen_at,
         last_seen_at, latest_occurrence_seq)
       SELECT u.id, ${projectId}, u.fingerprint, 'unresolved', u.occurrence_count, u.first_seen_at,
         u.last_seen_at, u.latest_occurrence_seq
       FROM unnest(${fresh.map((g) => g.id)}::text[],
       ${fresh.map((g) => fingerprintOf.get(g.id) ?? '')}::text[],
       ${fresh.map((g) => g.occurrenceCount)}::bigint[],
       ${fresh.map((g) => g.firstSeenAt)}::bigint[], ${fresh.map((g) => g.lastSeenAt)}::bigint[],
       ${fresh.map((g) => g.latestSeq)}::bigint[])
         AS u(id, fingerprint, occurrence_count, first_seen_at, last_seen_at, latest_occurrence_seq)`);
  const stored = touched.filter((g) => !g.isNew).sort(byKey((g) => [g.id]));
  if (stored.length > 0)
    await tx.run(sql`UPDATE issues i SET occurrence_count = u.occurrence_count, first_seen_at = u.first_seen_at,
         last_seen_at = u.last_seen_at, latest_occurrence_seq = u.latest_occurrence_seq,
         status = u.status
       FROM unnest(${stored.map((g) => g.id)}::text[],
       ${stored.map((g) => g.occurrenceCount)}::bigint[],
       ${stored.map((g) => g.firstSeenAt)}::bigint[], ${stored.map((g) => g.lastSeenAt)}::bigint[],
       ${stored.map((g) => g.latestSeq)}::bigint[], ${stored.map((g) => g.status)}::text[])
         AS u(id, occurrence_count, first_seen_at, last_seen_at, latest_occurrence_seq, status)
       WHERE i.id = u.id`);
  await countOccurrenceHours(
    tx,
    issues.map((i) => ({ issueId: groupOf(i).id, occurredAt: i.occurredAt })),
  );
  const writeActivity = activityWriter(tx);
  for (const g of regressions)
    await writeActivity(
      g.id,
      projectId,
      { type: 'status', value: 'unresolved', assigneeAccountId: null, assigneeTeamId: null },
      null,
      receivedAt,
    );
}

/** Stores new logs; the row number (`seq`) of each, by id. */
async function insertLogs(
  tx: Sql,
  projectId: string,
  logs: Batch['logs'],
  receivedAt: number,
): Promise<Map<string, number>> {
  const rows = await tx.rows<{
    id: string;
    seq: number;
  }>(sql`INSERT INTO logs (id, project_id, occurred_at, severity, source, message, attributes,
       environment, release, service_name, trace_id, span_id, sdk_name, sdk_version, bytes,
       received_at, triage_key, attributes_indexed)
     SELECT u.id, ${projectId}, u.occurred_at, u.severity, u.source, u.message, u.attributes,
       u.environment, u.release, u.service_name, u.trace_id, u.span_id, u.sdk_name,
       u.sdk_version, u.bytes, ${receivedAt}, u.triage_key, 1
     FROM unnest(${logs.map((l) => l.id)}::text[], ${logs.map((l) => l.occurredAt)}::bigint[],
     ${logs.map((l) => l.severity)}::text[], ${logs.map((l) => l.source)}::text[],
     ${logs.map((l) => l.message)}::text[], ${logs.map((l) => l.attributesJson)}::text[],
       ${logs.map((l) => l.environment)}::text[], ${logs.map((l) => l.release)}::text[],
       ${logs.map((l) => l.service_name)}::text[], ${logs.map((l) => l.traceId)}::text[],
       ${logs.map((l) => l.spanId)}::text[], ${logs.map((l) => l.sdk.name)}::text[],
       ${logs.map((l) => l.sdk.version)}::text[], ${logs.map((l) => l.bytes)}::bigint[],
       ${logs.map((l) => logTriageKey(l.source, l.service_name, l.message))}::text[])
       WITH ORDINALITY AS u(id, occurred_at, severity, source, message, attributes, environment,
         release, service_name, trace_id, span_id, sdk_name, sdk_version, bytes, triage_key, n)
     ORDER BY u.n
     RETURNING id, seq`);
  return new Map(rows.map((r) => [r.id, r.seq]));
}

async function insertSpans(
  tx: Sql,
  projectId: string,
  spans: Batch['spans'],
  receivedAt: number,
): Promise<void> {
  await tx.run(sql`INSERT INTO spans (id, project_id, trace_id, span_id, parent_span_id, name, operation, kind,
       service_name, environment, release, started_at, duration_ms, status, status_message,
       attributes, events, sdk_name, sdk_version, received_at, rolled_up)
     SELECT u.id, ${projectId}, u.trace_id, u.span_id, u.parent_span_id, u.name, u.operation,
     u.kind,
       u.service_name, u.environment, u.release, u.started_at, u.duration_ms, u.status,
       u.status_message, u.attributes, u.events, u.sdk_name, u.sdk_version, ${receivedAt}, 1
     FROM unnest(${spans.map((s) => s.id)}::text[], ${spans.map((s) => s.traceId)}::text[],
     ${spans.map((s) => s.spanId)}::text[], ${spans.map((s) => s.parentSpanId)}::text[],
     ${spans.map((s) => s.name)}::text[], ${spans.map((s) => s.operation)}::text[],
       ${spans.map((s) => s.spanKind)}::text[], ${spans.map((s) => s.service_name)}::text[],
       ${spans.map((s) => s.environment)}::text[], ${spans.map((s) => s.release)}::text[],
       ${spans.map((s) => s.startedAt)}::bigint[], ${spans.map((s) => s.durationMs)}::float8[],
       ${spans.map((s) => s.status)}::text[], ${spans.map((s) => s.statusMessage)}::text[],
       ${spans.map((s) => json(s.attributes))}::text[], ${spans.map((s) => json(s.events))}::text[],
       ${spans.map((s) => s.sdk.name)}::text[], ${spans.map((s) => s.sdk.version)}::text[])
       WITH ORDINALITY AS u(id, trace_id, span_id, parent_span_id, name, operation, kind,
         service_name, environment, release, started_at, duration_ms, status, status_message,
         attributes, events, sdk_name, sdk_version, n)
     ORDER BY u.n`);
}

async function insertActions(
  tx: Sql,
  projectId: string,
  actions: Batch['actions'],
  receivedAt: number,
): Promise<void> {
  await tx.run(sql`INSERT INTO actions (id, project_id, occurred_at, name, kind, distinct_id, session_id,
       properties, environment, release, service_name, trace_id, span_id, sdk_name, sdk_version,
       received_at)
     SELECT u.id, ${projectId}, u.occurred_at, u.name, u.kind, u.distinct_id, u.session_id,
     u.properties,
       u.environment, u.release, u.service_name, u.trace_id, u.span_id, u.sdk_name,
       u.sdk_version, ${receivedAt}
     FROM unnest(${actions.map((a) => a.id)}::text[], ${actions.map((a) => a.occurredAt)}::bigint[],
     ${actions.map((a) => a.name)}::text[], ${actions.map((a) => a.actionKind)}::text[],
     ${actions.map((a) => a.distinctId)}::text[], ${actions.map((a) => a.sessionId)}::text[],
       ${actions.map((a) => json(a.properties))}::text[],
       ${actions.map((a) => a.environment)}::text[], ${actions.map((a) => a.release)}::text[],
       ${actions.map((a) => a.service_name)}::text[], ${actions.map((a) => a.traceId)}::text[],
       ${actions.map((a) => a.spanId)}::text[],
       ${actions.map((a) => a.sdk.name)}::text[], ${actions.map((a) => a.sdk.version)}::text[])
       WITH ORDINALITY AS u(id, occurred_at, name, kind, distinct_id, session_id, properties,
         environment, release, service_name, trace_id, span_id, sdk_name, sdk_version, n)
     ORDER BY u.n`);
}

async function insertMetrics(
  tx: Sql,
  projectId: string,
  metrics: Batch['metrics'],
  receivedAt: number,
): Promise<void> {
  await tx.run(sql`INSERT INTO metric_samples (id, event_id, project_id, occurred_at, name, kind, value, unit,
       temporality, attributes, environment, release, service_name, trace_id, span_id, sdk_name,
       sdk_version, bytes, received_at)
     SELECT u.id, u.event_id, ${projectId}, u.occurred_at, u.name, u.kind, u.value, u.unit,
     u.temporality,
       u.attributes, u.environment, u.release, u.service_name, u.trace_id, u.span_id,
       u.sdk_name, u.sdk_version, u.bytes, ${receivedAt}
     FROM unnest(${metrics.map(() => randomUUID())}::text[], ${metrics.map((m) => m.id)}::text[],
     ${metrics.map((m) => m.occurredAt)}::bigint[], ${metrics.map((m) => m.name)}::text[],
     ${metrics.map((m) => m.metricKind)}::text[], ${metrics.map((m) => m.value)}::float8[],
       ${metrics.map((m) => m.unit)}::text[], ${metrics.map((m) => m.temporality)}::text[],
       ${metrics.map((m) => m.attributesJson)}::text[],
       ${metrics.map((m) => m.environment)}::text[], ${metrics.map((m) => m.release)}::text[],
       ${metrics.map((m) => m.service_name)}::text[],
       ${metrics.map((m) => m.traceId)}::text[], ${metrics.map((m) => m.spanId)}::text[],
       ${metrics.map((m) => m.sdk.name)}::text[], ${metrics.map((m) => m.sdk.version)}::text[],
       ${metrics.map((m) => m.bytes)}::bigint[])
       WITH ORDINALITY AS u(id, event_id, occurred_at, name, kind, value, unit, temporality,
         attributes, environment, release, service_name, trace_id, span_id, sdk_name,
         sdk_version, bytes, n)
     ORDER BY u.n`);
}
