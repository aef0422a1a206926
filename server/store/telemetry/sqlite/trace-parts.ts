import type { Db } from '../../sqlite/database';
import { betterRootSql, tracePartDeltas, type SpanToRollUp } from '../../rows/trace-part-deltas';

export type { SpanToRollUp } from '../../rows/trace-part-deltas';

const BETTER = betterRootSql('');

/**
 * Keeps `trace_parts` and `trace_facets` current: called inside the ingest transaction with
 * the spans it really stored, so a duplicate span is never counted twice. Spans of one trace
 * may arrive in any order and any number of batches.
 */
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
    for (const { part, facets } of tracePartDeltas(spans)) {
      upsert.run({ project_id: projectId, ...part });
      for (const f of facets) facet.run(projectId, part.trace_id, f.facet, f.value);
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
