import { createHash, randomUUID } from 'node:crypto';
import { logTriageKey } from '../../../domain/log-triage-key';
import type { NewItems } from '../../../core/store/telemetry/ingest';
import type {
  BatchWrite,
  ItemKind,
  TelemetryWrites,
} from '../../../core/store/telemetry/telemetry-writes';
import { raw, sql, join, type SqlFragment } from '../../rows/sql';
import { typed } from './ch-sql';
import type { ChDb } from './clickhouse-db';
import { takeLogsOutOfRollups } from './log-rollup-undo';
import { attributeMaps } from './attribute-maps';
import { tracePartDeltas } from '../../rows/trace-part-deltas';
import { writeGate, type WriteGate } from './write-gate';
import { deleteFrom } from './clickhouse-schema';
import { ledgerFilter } from './ledger-filter';
import type { AcceptedIdFilter } from './accepted-id-filter';

const KINDS: readonly ItemKind[] = ['issue', 'log', 'span', 'action', 'metric'];
const ROW_TABLES = [
  'logs',
  'issue_occurrences',
  'spans',
  'trace_parts',
  'actions',
  'metric_samples',
] as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const json = (v: unknown) => JSON.stringify(v);

/**
 * The telemetry side of a journaled ingest in ClickHouse: rows of every kind, written under
 * the batch's id (their ids reach the ledger, `accepted_ids`, through views: LEDGER_VIEWS in
 * clickhouse-schema.ts); removed by batch, ledger and rollup counts included. Occurrences are numbered in order of arrival from the highest number stored.
 * Writes and removals pass `gate`, which a backup's snapshot closes for the moment it takes
 * (every table then holds each batch whole or not at all).
 *
 * On the engine in this process the ledger's keys are also in a filter (ledger-filter.ts):
 * `storedIds` looks up only the ids the filter cannot rule out, usually none of a fresh
 * batch. A write adds its ids to the filter before its rows are inserted, so no id whose rows
 * may be stored is ever ruled out (a failed or removed write leaves ids that only cost a
 * lookup). On a server every id is looked up: other instances write its ledger too.
 */
export async function clickhouseTelemetryWrites(
  db: ChDb,
  gate: WriteGate = writeGate(),
): Promise<TelemetryWrites> {
  let seq =
    (await db.one<{ n: number }>(sql`SELECT toInt64(max(seq)) AS n FROM issue_occurrences`))?.n ??
    0;
  // Actions too are numbered in order of arrival: paths keep actions of one instant so.
  let actionSeq =
    (await db.one<{ n: number }>(sql`SELECT toInt64(max(seq)) AS n FROM actions`))?.n ?? 0;
  const shared = await ledgerFilter(db);

  return {
    async storedIds(projectId, ids, except) {
      const wanted: SqlFragment[] = [];
      for (const kind of KINDS) {
        const list = shared?.ready
          ? ids[kind].filter((id) => shared.filter.mayHold(projectId, kind, id))
          : ids[kind];
        if (list.length > 0) wanted.push(sql`(kind = ${kind} AND id IN ${list})`);
      }
      const found: Record<ItemKind, string[]> = {
        issue: [],
        log: [],
        span: [],
        action: [],
        metric: [],
      };
      if (wanted.length === 0) return found;
      const skip =
        except.size > 0 ? sql`AND batch_id NOT IN ${typed([...except], 'Array(UUID)')}` : raw('');
      const rows = await db.rows<{ kind: ItemKind; id: string }>(
        sql`SELECT toString(kind) AS kind, id FROM accepted_ids
          WHERE project_id = ${projectId} AND (${join(wanted, ' OR ')}) ${skip}`,
      );
      for (const r of rows) found[r.kind].push(r.id);
      return found;
    },

    write: (w) => gate.shared(() => write([w], w.batchId)),
    writeGroup: (ws) => gate.shared(() => write(ws, groupToken(ws)).then(() => undefined)),
    remove: (batchIds) => gate.shared(() => remove(batchIds)),

    async batchesSince(since) {
      const from = sql`received_at >= fromUnixTimestamp64Milli(${since})`;
      const rows = await db.rows<{ b: string }>(
        join(
          ROW_TABLES.map(
            (t) => sql`SELECT DISTINCT toString(batch_id) AS b FROM ${raw(t)} WHERE ${from}`,
          ),
          ' UNION DISTINCT ',
        ),
      );
      return rows.map((r) => r.b);
    },
  };

  /**
   * One insert per table for all of `batches` (a group commit: fewer, larger parts), each
   * row under its own batch's id; `token` names the inserts (the same group again adds none).
   */
  async function write(
    batches: readonly BatchWrite[],
    token: string,
  ): Promise<{ occurrenceSeqs: number[] }> {
    const tables = new Map<string, object[]>();
    const occurrenceSeqs: number[] = [];
    // Before any row can be stored (see above).
    if (shared) for (const b of batches) addToFilter(shared.filter, b);
    for (const b of batches) {
      const own = rowsOf(b);
      occurrenceSeqs.push(...own.occurrenceSeqs);
      for (const [table, rows] of own.tables) {
        const all = tables.get(table);
        if (all) for (const r of rows) all.push(r);
        else tables.set(table, rows);
      }
    }
    await Promise.all(
      [...tables]
        .filter(([, rows]) => rows.length > 0)
        .map(([table, rows]) => db.insertRows(table, rows, `${token}.${table}`)),
    );
    return { occurrenceSeqs };
  }

  /** A batch's rows by table, and the order of arrival given to its occurrences. */
  function rowsOf({ batchId, projectId: p, receivedAt, retentionDays, items }: BatchWrite): {
    tables: [string, object[]][];
    occurrenceSeqs: number[];
  } {
    const trailer = { received_at: receivedAt, batch_id: batchId, retention_days: retentionDays };
    const common = (e: NewItems['logs'][number] | NewItems['actions'][number]) => ({
      environment: e.environment,
      release: e.release,
      service_name: e.service_name,
      trace_id: e.traceId,
      span_id: e.spanId,
      sdk_name: e.sdk.name,
      sdk_version: e.sdk.version,
    });

    const logs = items.logs.map((l) => {
      return {
        project_id: p,
        occurred_at: l.occurredAt,
        id: l.id,
        severity: l.severity,
        source: l.source,
        message: l.message,
        attributes: l.attributesJson,
        ...attributeMaps(l.attributes),
        ...common(l),
        bytes: l.bytes,
        triage_key: logTriageKey(l.source, l.service_name, l.message),
        ...trailer,
      };
    });
    const occurrenceSeqs: number[] = [];
    const occurrences = items.issues.map((i, k) => {
      seq += 1;
      occurrenceSeqs.push(seq);
      return {
        project_id: p,
        issue_id: items.issueGroups[k] ?? '',
        occurred_at: i.occurredAt,
        id: i.id,
        seq,
        severity: i.severity,
        title: i.title,
        message: i.message,
        exception: i.exception ? json(i.exception) : null,
        stack_trace: i.stackTrace,
        attributes: json(i.attributes),
        environment: i.environment,
        release: i.release,
        service_name: i.service_name,
        trace_id: i.traceId,
        span_id: i.spanId,
        breadcrumbs: i.breadcrumbs ? json(i.breadcrumbs) : null,
        breadcrumbs_truncated: i.breadcrumbsTruncated ? 1 : 0,
        sdk_name: i.sdk.name,
        sdk_version: i.sdk.version,
        ...trailer,
      };
    });
    const spans = items.spans.map((s) => {
      return {
        project_id: p,
        trace_id: s.traceId,
        started_at: s.startedAt,
        id: s.id,
        span_id: s.spanId,
        parent_span_id: s.parentSpanId,
        name: s.name,
        operation: s.operation,
        kind: s.spanKind,
        environment: s.environment,
        release: s.release,
        service_name: s.service_name,
        duration_ms: s.durationMs,
        status: s.status,
        status_message: s.statusMessage,
        attributes: json(s.attributes),
        events: json(s.events),
        sdk_name: s.sdk.name,
        sdk_version: s.sdk.version,
        ...trailer,
      };
    });
    // Trace discovery's part of each trace this batch carries (clickhouse-schema.ts).
    const traceParts = tracePartDeltas(items.spans).map(({ part, facets }) => {
      const of = (facet: string) => facets.filter((f) => f.facet === facet).map((f) => f.value);
      return {
        project_id: p,
        ...part,
        services: of('service'),
        releases: of('release'),
        environments: of('environment'),
        ...trailer,
      };
    });
    const actions = items.actions.map((a) => {
      return {
        project_id: p,
        occurred_at: a.occurredAt,
        id: a.id,
        name: a.name,
        kind: a.actionKind,
        distinct_id: a.distinctId,
        session_id: a.sessionId,
        seq: ++actionSeq,
        properties: json(a.properties),
        ...common(a),
        ...trailer,
      };
    });
    const metrics = items.metrics.map((m) => {
      return {
        project_id: p,
        name: m.name,
        occurred_at: m.occurredAt,
        // The sample's own id, apart from the event id sent (as the state stores keep it);
        // a retried insert of the batch is skipped by its token, so a new id is no copy.
        id: randomUUID(),
        event_id: m.id,
        kind: m.metricKind,
        value: m.value,
        unit: m.unit,
        temporality: m.temporality,
        attributes: m.attributesJson,
        environment: m.environment,
        release: m.release,
        service_name: m.service_name,
        trace_id: m.traceId,
        span_id: m.spanId,
        sdk_name: m.sdk.name,
        sdk_version: m.sdk.version,
        bytes: m.bytes,
        ...trailer,
      };
    });
    const tables: [string, object[]][] = [
      ['logs', logs],
      ['issue_occurrences', occurrences],
      ['spans', spans],
      ['trace_parts', traceParts],
      ['actions', actions],
      ['metric_samples', metrics],
    ];
    return { tables, occurrenceSeqs };
  }

  async function remove(batchIds: readonly string[]): Promise<void> {
    for (const b of batchIds) if (!UUID.test(b)) throw new Error(`not a batch id: ${b}`);
    for (const b of batchIds)
      await takeLogsOutOfRollups(db, `(SELECT * FROM logs WHERE batch_id = '${b}')`, `undo.${b}`);
    const ids = typed([...batchIds], 'Array(UUID)');
    for (const table of [...ROW_TABLES, 'accepted_ids'])
      await db.command(sql`${raw(deleteFrom(table, db.target))} WHERE batch_id IN ${ids}`);
  }
}

/** A batch's ledger keys: each kind's id as its ledger view writes it (clickhouse-schema.ts). */
function addToFilter(filter: AcceptedIdFilter, { projectId: p, items }: BatchWrite): void {
  for (const i of items.issues) filter.add(p, 'issue', i.id);
  for (const l of items.logs) filter.add(p, 'log', l.id);
  for (const s of items.spans) filter.add(p, 'span', s.id);
  for (const a of items.actions) filter.add(p, 'action', a.id);
  for (const m of items.metrics) filter.add(p, 'metric', m.id);
}

/**
 * A group's insert token: its one batch's id, or a digest of its batches' ids (in order), so
 * a retried write of the same group is skipped and no other group's token is the same.
 */
function groupToken(batches: readonly BatchWrite[]): string {
  const [only] = batches;
  if (batches.length === 1 && only) return only.batchId;
  const h = createHash('sha256');
  for (const b of batches) h.update(b.batchId).update(',');
  return `group-${h.digest('hex').slice(0, 40)}`;
}
