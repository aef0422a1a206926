import { spanNaming } from '../../domain/trace-naming';
import type { Db } from '../database';

/** What a trace part needs of one stored span. */
export type SpanToRollUp = {
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  name: string;
  operation: string | null;
  spanKind: string | null;
  service_name: string;
  release: string;
  environment: string;
  startedAt: number;
  durationMs: number;
  status: 'ok' | 'error' | null;
  attributes: Record<string, unknown>;
};

type Part = {
  trace_id: string;
  started_at: number;
  ended_at: number;
  span_count: number;
  error_span_count: number;
  root_span_id: string;
  root_has_parent: number;
  root_started_at: number;
  root_name: string;
  root_service_name: string;
  root_operation: string | null;
  generic_name_spans: number;
  unmatched_route_spans: number;
  generic_operation_spans: number;
  facets: Set<string>;
};

/** Root candidates: no parent first, then the earliest start, then the lower span id. */
const betterRoot = (a: SpanToRollUp, b: Part) => {
  const aParent = a.parentSpanId === null ? 0 : 1;
  if (aParent !== b.root_has_parent) return aParent < b.root_has_parent;
  if (a.startedAt !== b.root_started_at) return a.startedAt < b.root_started_at;
  return a.spanId < b.root_span_id;
};

const FACET_SEPARATOR = '\u0000';

/**
 * Keeps `trace_parts` and `trace_facets` current: called inside the ingest transaction with
 * the spans it really stored, so a duplicate span is never counted twice. Spans of one trace
 * may arrive in any order and any number of batches.
 */
// SET expressions all read the row as it was, so each root column compares the same values.
const BETTER =
  '(excluded.root_has_parent, excluded.root_started_at, excluded.root_span_id) < (root_has_parent, root_started_at, root_span_id)';

export function traceRollup(db: Db) {
  const upsert = db.prepare(`INSERT INTO trace_parts (project_id, trace_id, started_at, ended_at,
      span_count, error_span_count, root_span_id, root_has_parent, root_started_at, root_name,
      root_service_name, root_operation, generic_name_spans, unmatched_route_spans, generic_operation_spans)
    VALUES (@project_id, @trace_id, @started_at, @ended_at, @span_count, @error_span_count, @root_span_id,
      @root_has_parent, @root_started_at, @root_name, @root_service_name, @root_operation,
      @generic_name_spans, @unmatched_route_spans, @generic_operation_spans)
    ON CONFLICT (project_id, trace_id) DO UPDATE SET
      started_at = MIN(started_at, excluded.started_at),
      ended_at = MAX(ended_at, excluded.ended_at),
      span_count = span_count + excluded.span_count,
      error_span_count = error_span_count + excluded.error_span_count,
      generic_name_spans = generic_name_spans + excluded.generic_name_spans,
      unmatched_route_spans = unmatched_route_spans + excluded.unmatched_route_spans,
      generic_operation_spans = generic_operation_spans + excluded.generic_operation_spans,
      root_span_id = CASE WHEN ${BETTER} THEN excluded.root_span_id ELSE root_span_id END,
      root_has_parent = CASE WHEN ${BETTER} THEN excluded.root_has_parent ELSE root_has_parent END,
      root_started_at = CASE WHEN ${BETTER} THEN excluded.root_started_at ELSE root_started_at END,
      root_name = CASE WHEN ${BETTER} THEN excluded.root_name ELSE root_name END,
      root_service_name = CASE WHEN ${BETTER} THEN excluded.root_service_name ELSE root_service_name END,
      root_operation = CASE WHEN ${BETTER} THEN excluded.root_operation ELSE root_operation END`);
  const facet = db.prepare(
    'INSERT OR IGNORE INTO trace_facets (project_id, trace_id, facet, value) VALUES (?, ?, ?, ?)',
  );

  return function write(projectId: string, spans: readonly SpanToRollUp[]): void {
    const parts = new Map<string, Part>();
    for (const s of spans) {
      const naming = spanNaming({
        name: s.name,
        operation: s.operation,
        kind: s.spanKind,
        attributes: s.attributes,
      });
      let part = parts.get(s.traceId);
      if (!part) {
        part = {
          trace_id: s.traceId,
          started_at: s.startedAt,
          ended_at: s.startedAt + s.durationMs,
          span_count: 0,
          error_span_count: 0,
          root_span_id: s.spanId,
          root_has_parent: s.parentSpanId === null ? 0 : 1,
          root_started_at: s.startedAt,
          root_name: s.name,
          root_service_name: s.service_name,
          root_operation: s.operation,
          generic_name_spans: 0,
          unmatched_route_spans: 0,
          generic_operation_spans: 0,
          facets: new Set(),
        };
        parts.set(s.traceId, part);
      } else if (betterRoot(s, part)) {
        part.root_span_id = s.spanId;
        part.root_has_parent = s.parentSpanId === null ? 0 : 1;
        part.root_started_at = s.startedAt;
        part.root_name = s.name;
        part.root_service_name = s.service_name;
        part.root_operation = s.operation;
      }
      part.started_at = Math.min(part.started_at, s.startedAt);
      part.ended_at = Math.max(part.ended_at, s.startedAt + s.durationMs);
      part.span_count += 1;
      if (s.status === 'error') part.error_span_count += 1;
      if (naming.genericName) part.generic_name_spans += 1;
      if (naming.unmatchedRoute) part.unmatched_route_spans += 1;
      if (naming.genericOperation) part.generic_operation_spans += 1;
      part.facets.add(`service${FACET_SEPARATOR}${s.service_name}`);
      part.facets.add(`release${FACET_SEPARATOR}${s.release}`);
      part.facets.add(`environment${FACET_SEPARATOR}${s.environment}`);
    }
    for (const { facets, ...part } of parts.values()) {
      upsert.run({ project_id: projectId, ...part });
      for (const f of facets) {
        const at = f.indexOf(FACET_SEPARATOR);
        facet.run(projectId, part.trace_id, f.slice(0, at), f.slice(at + 1));
      }
    }
  };
}

export type TraceRollup = ReturnType<typeof traceRollup>;

type PendingSpan = {
  seq: number;
  project_id: string;
  trace_id: string;
  span_id: string;
  parent_span_id: string | null;
  name: string;
  operation: string | null;
  kind: string | null;
  service_name: string;
  release: string;
  environment: string;
  started_at: number;
  duration_ms: number;
  status: 'ok' | 'error' | null;
  attributes: string;
};

/** Spans stored before trace discovery existed are rolled up here, once, when the store opens. */
export function backfillTraceParts(db: Db, write: TraceRollup): void {
  const pending = db.prepare<[], PendingSpan>(
    `SELECT seq, project_id, trace_id, span_id, parent_span_id, name, operation, kind, service_name,
       release, environment, started_at, duration_ms, status, attributes
     FROM spans WHERE rolled_up IS NULL ORDER BY seq LIMIT 5000`,
  );
  const done = db.prepare('UPDATE spans SET rolled_up = 1 WHERE seq = ?');
  const batch = db.transaction(() => {
    const rows = pending.all();
    const byProject = new Map<string, SpanToRollUp[]>();
    for (const r of rows) {
      const list = byProject.get(r.project_id) ?? [];
      list.push({
        traceId: r.trace_id,
        spanId: r.span_id,
        parentSpanId: r.parent_span_id,
        name: r.name,
        operation: r.operation,
        spanKind: r.kind,
        service_name: r.service_name,
        release: r.release,
        environment: r.environment,
        startedAt: r.started_at,
        durationMs: r.duration_ms,
        status: r.status,
        attributes: JSON.parse(r.attributes) as Record<string, unknown>,
      });
      byProject.set(r.project_id, list);
    }
    for (const [projectId, spans] of byProject) write(projectId, spans);
    for (const r of rows) done.run(r.seq);
    return rows.length;
  });
  while (batch() > 0);
}
