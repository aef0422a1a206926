import { randomUUID } from 'node:crypto';
import { indexAttributes, type IndexedAttributes } from '../../../domain/attribute-index';
import { logTriageKey } from '../../../domain/log-triage-key';
import type { Stream } from '../../../domain/usage';
import type { Batch } from '../../../core/batch';
import { acceptResult } from '../../rows/accepted-items';
import type { LogToIndex } from '../../rows/log-index-rows';
import type { AcceptResult, QuotaContext, IngestStore } from '../../../core/store/telemetry/ingest';
import { admitNewItems, countStored, storeOccurrences } from '../../postgres/batch-counts';
import { pgLogAttributeWrites, type PgLogAttributeWrites } from './log-attribute-writes';
import type { Sql } from '../../postgres/pg-database';
import {
  ensurePartitions,
  forgetPartitions,
  type PartitionedTable,
} from '../../postgres/pg-partitions';
import type { PgContext } from '../../postgres/pg-context';
import { rollUpTraceParts } from './trace-parts';
import { sql } from '../../rows/sql';

const json = (v: unknown) => JSON.stringify(v);

/** Items of one stream whose ids this call accepted: the first of each new id, in batch order. */
function firstNew<T extends { id: string }>(items: readonly T[], accepted: Set<string>): T[] {
  return items.filter((it) => accepted.delete(it.id));
}

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
  // The quota is checked on what is really added; a throw rolls the transaction back.
  const { groups, newItems, items, added } = await admitNewItems(tx, p, quota, {
    issues,
    logs,
    spans,
    actions,
    metrics,
  });

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

  const contextUpdated = await countStored(tx, p, batch, items, added, receivedAt);
  return acceptResult(batch, newItems, contextUpdated);
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
