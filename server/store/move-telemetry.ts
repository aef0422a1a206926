import { createHash } from 'node:crypto';
import type { ActionEvent, IssueEvent, LogEvent, MetricEvent, SpanEvent } from '../core/batch';
import type { KindElsewhere } from '../core/store/state/ingest-commits';
import type { NewItems } from '../core/store/telemetry/ingest';
import type { TelemetryWrites } from '../core/store/telemetry/telemetry-writes';
import type { Db } from './sqlite/database';
import { groupBy } from '../core/group-by';

/** Rows read from SQLite and written to ClickHouse at a time, unless told otherwise. */
export const MOVE_CHUNK_ROWS = 5_000;
/** The retention moved rows are written with (the longest plan's: nothing is cut short). */
const RETENTION_DAYS = 90;

type Row = Record<string, unknown> & { seq: number; project_id: string; received_at: number };

/** What one SQLite telemetry table becomes in ClickHouse. */
type TableMove = {
  table: string;
  /** The rows of a chunk as new items (one project's). */
  items(rows: Row[]): Partial<NewItems>;
  /** SQLite's own derived tables of this kind, dropped with it (ClickHouse has its own). */
  derived: string[];
  /** What stays once moved (null: nothing, and the table is dropped). */
  keep: string | null;
  /** SELECT list (issue occurrences bring their group's fingerprint). */
  select: string;
};

const text = (v: unknown): string => String(v);
const orNull = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
const parsed = <T>(v: unknown): T => JSON.parse(String(v)) as T;
const common = (r: Row) => ({
  id: text(r.id),
  release: text(r.release),
  environment: text(r.environment),
  service_name: text(r.service_name),
  sdk: { name: text(r.sdk_name), version: text(r.sdk_version) },
});

export const TABLE_MOVES: Record<KindElsewhere, TableMove> = {
  logs: {
    table: 'logs',
    select: 'SELECT * FROM logs',
    derived: ['log_attributes', 'log_attribute_hours', 'log_index_hours', 'attribute_paths'],
    keep: null,
    items: (rows) => ({
      logs: rows.map((r): LogEvent => ({
        ...common(r),
        kind: 'log',
        occurredAt: Number(r.occurred_at),
        severity: text(r.severity) as LogEvent['severity'],
        message: text(r.message),
        source: text(r.source),
        attributes: parsed(r.attributes),
        traceId: orNull(r.trace_id),
        spanId: orNull(r.span_id),
        attributesJson: text(r.attributes),
        bytes: Number(r.bytes),
      })),
    }),
  },
  issues: {
    table: 'issue_occurrences',
    select: `SELECT o.*, i.fingerprint FROM issue_occurrences o JOIN issues i ON i.id = o.issue_id`,
    derived: [],
    // Each group's first and latest occurrence stay: the issue reads join them.
    keep: `seq IN (SELECT latest_occurrence_seq FROM issues)
      OR seq IN (SELECT (SELECT f.seq FROM issue_occurrences f WHERE f.issue_id = i.id
        ORDER BY f.occurred_at, f.id LIMIT 1) FROM issues i)`,
    items: (rows) => ({
      issues: rows.map((r): IssueEvent => ({
        ...common(r),
        kind: 'issue',
        occurredAt: Number(r.occurred_at),
        severity: text(r.severity) as IssueEvent['severity'],
        title: text(r.title),
        message: text(r.message),
        exception: r.exception === null ? null : parsed(r.exception),
        stackTrace: orNull(r.stack_trace),
        fingerprint: text(r.fingerprint),
        attributes: parsed(r.attributes),
        traceId: orNull(r.trace_id),
        spanId: orNull(r.span_id),
        breadcrumbs: r.breadcrumbs === null ? null : parsed(r.breadcrumbs),
        breadcrumbsTruncated: r.breadcrumbs_truncated === 1,
      })),
      issueGroups: rows.map((r) => text(r.issue_id)),
    }),
  },
  spans: {
    table: 'spans',
    select: 'SELECT * FROM spans',
    derived: ['trace_parts', 'trace_facets'],
    keep: null,
    items: (rows) => ({
      spans: rows.map((r): SpanEvent => ({
        ...common(r),
        kind: 'trace_span',
        traceId: text(r.trace_id),
        spanId: text(r.span_id),
        parentSpanId: orNull(r.parent_span_id),
        name: text(r.name),
        operation: orNull(r.operation),
        spanKind: orNull(r.kind) as SpanEvent['spanKind'],
        startedAt: Number(r.started_at),
        durationMs: Number(r.duration_ms),
        status: orNull(r.status) as SpanEvent['status'],
        statusMessage: orNull(r.status_message),
        attributes: parsed(r.attributes),
        events: parsed(r.events),
      })),
    }),
  },
  actions: {
    table: 'actions',
    select: 'SELECT * FROM actions',
    derived: [],
    keep: null,
    items: (rows) => ({
      actions: rows.map((r): ActionEvent => ({
        ...common(r),
        kind: 'action',
        occurredAt: Number(r.occurred_at),
        name: text(r.name),
        actionKind: text(r.kind) as ActionEvent['actionKind'],
        distinctId: text(r.distinct_id),
        sessionId: orNull(r.session_id),
        properties: parsed(r.properties),
        traceId: orNull(r.trace_id),
        spanId: orNull(r.span_id),
      })),
    }),
  },
  metrics: {
    table: 'metric_samples',
    select: 'SELECT * FROM metric_samples',
    derived: [],
    keep: null,
    items: (rows) => ({
      metrics: rows.map((r): MetricEvent => ({
        ...common(r),
        id: text(r.event_id),
        kind: 'metric',
        occurredAt: Number(r.occurred_at),
        name: text(r.name),
        metricKind: text(r.kind) as MetricEvent['metricKind'],
        value: Number(r.value),
        unit: orNull(r.unit),
        temporality: orNull(r.temporality) as MetricEvent['temporality'],
        attributes: parsed(r.attributes),
        traceId: orNull(r.trace_id),
        spanId: orNull(r.span_id),
        attributesJson: text(r.attributes),
        bytes: Number(r.bytes),
      })),
    }),
  },
};

const NO_ITEMS: NewItems = {
  issues: [],
  issueGroups: [],
  logs: [],
  spans: [],
  actions: [],
  metrics: [],
};

/** A batch id derived from what it holds: a chunk written again carries the same one. */
function chunkBatchId(table: string, projectId: string, firstSeq: number): string {
  const h = createHash('sha256')
    .update(`${table}:${projectId}:${String(firstSeq)}`)
    .digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

type MoveRow = { table_name: string; moved_through: number; moved: number; done_at: number | null };

/**
 * The kinds whose SQLite table still holds rows ClickHouse should have: a table with rows and
 * no finished move. A table that is empty (a new data directory, or nothing of the kind ever
 * sent) is recorded as moved, so later rows of the kind go to ClickHouse only.
 */
export function unmovedTables(db: Db, kinds: readonly KindElsewhere[], now: number): string[] {
  const unmoved: string[] = [];
  for (const kind of kinds) {
    const m = TABLE_MOVES[kind];
    const move = db
      .prepare<[string], MoveRow>('SELECT * FROM telemetry_moves WHERE table_name = ?')
      .get(m.table);
    if (move?.done_at != null) continue;
    const any = tableExists(db, m.table)
      ? db.prepare(`SELECT 1 FROM ${m.table} LIMIT 1`).get()
      : undefined;
    if (any === undefined && move === undefined)
      db.transaction(() => {
        db.prepare('INSERT INTO telemetry_moves (table_name, done_at) VALUES (?, ?)').run(
          m.table,
          now,
        );
        if (m.keep === null) dropTables(db, m);
      })();
    else unmoved.push(m.table);
  }
  return unmoved;
}

const tableExists = (db: Db, name: string): boolean =>
  db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !==
  undefined;

/** SQLite keeps no telemetry rows: a kind's table and its derived tables go once moved. */
function dropTables(db: Db, m: TableMove): void {
  for (const t of [...m.derived, m.table]) db.prepare(`DROP TABLE IF EXISTS ${t}`).run();
}

export type TableMoved = { table: string; moved: number; alreadyMoved: boolean };

/**
 * Copies every row of the kinds' SQLite tables into ClickHouse through the ingest's own
 * writes (ids into the ledger, rollups by the views), a chunk of one project at a time. Each
 * chunk is written under a batch id derived from its first row, so a chunk written again after
 * a crash is deduplicated by its insert token, and progress is recorded after each chunk: run
 * again, the move resumes where it stopped. Once a table is copied it is dropped here (with
 * its SQLite-only indexes and rollups; occurrences keep each group's first and latest).
 */
export async function moveTelemetry(
  db: Db,
  writes: TelemetryWrites,
  kinds: readonly KindElsewhere[],
  now: number,
  onChunk: (table: string, moved: number) => void = () => undefined,
  chunkRows = MOVE_CHUNK_ROWS,
): Promise<TableMoved[]> {
  const results: TableMoved[] = [];
  for (const kind of kinds) {
    const m = TABLE_MOVES[kind];
    const get = () =>
      db
        .prepare<[string], MoveRow>('SELECT * FROM telemetry_moves WHERE table_name = ?')
        .get(m.table);
    if (get()?.done_at != null) {
      results.push({ table: m.table, moved: get()?.moved ?? 0, alreadyMoved: true });
      continue;
    }
    // A table of a data directory that never held telemetry in SQLite: nothing to report.
    if (unmovedTables(db, [kind], now).length === 0) continue;
    db.prepare('INSERT OR IGNORE INTO telemetry_moves (table_name) VALUES (?)').run(m.table);
    const alias = kind === 'issues' ? 'o.' : '';
    for (;;) {
      const from = get()?.moved_through ?? 0;
      const rows = db
        .prepare<[number, number], Row>(
          `${m.select} WHERE ${alias}seq > ? ORDER BY ${alias}seq LIMIT ?`,
        )
        .all(from, chunkRows);
      const last = rows.at(-1);
      if (!last) break;
      for (const [projectId, own] of groupBy(rows, (r) => r.project_id)) {
        const first = own[0];
        if (!first) continue;
        const batchId = chunkBatchId(m.table, projectId, first.seq);
        // Recorded as a committed batch: a restore's check keeps its rows (backup-store.ts).
        db.prepare(
          `INSERT OR IGNORE INTO ingest_journal (batch_id, project_id, started_at, committed_at)
           VALUES (?, ?, ?, ?)`,
        ).run(batchId, projectId, now, now);
        await writes.write({
          batchId,
          projectId,
          receivedAt: Math.max(...own.map((r) => Number(r.received_at))),
          retentionDays: RETENTION_DAYS,
          items: { ...NO_ITEMS, ...m.items(own) },
        });
      }
      db.prepare(
        'UPDATE telemetry_moves SET moved_through = ?, moved = moved + ? WHERE table_name = ?',
      ).run(last.seq, rows.length, m.table);
      onChunk(m.table, get()?.moved ?? 0);
    }
    db.transaction(() => {
      if (m.keep === null) dropTables(db, m);
      else db.prepare(`DELETE FROM ${m.table} WHERE NOT (${m.keep})`).run();
      db.prepare('UPDATE telemetry_moves SET done_at = ? WHERE table_name = ?').run(now, m.table);
    })();
    results.push({ table: m.table, moved: get()?.moved ?? 0, alreadyMoved: false });
  }
  return results;
}
