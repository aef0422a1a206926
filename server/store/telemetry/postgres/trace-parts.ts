import { betterRootSql, tracePartDeltas, type SpanToRollUp } from '../../rows/trace-part-deltas';
import { byKey } from '../../postgres/key-order';
import type { Sql } from '../../postgres/pg-database';
import { sql, raw } from '../../rows/sql';

const BETTER = betterRootSql('trace_parts.');

/**
 * Keeps `trace_parts` and `trace_facets` current: called inside the ingest transaction with
 * the spans it really stored, so a duplicate span is never counted twice. One statement for
 * the parts and one for the facets, whatever the number of traces; rows go in key order so
 * two transactions touching the same traces lock them in the same order.
 */
export async function rollUpTraceParts(
  tx: Sql,
  projectId: string,
  spans: readonly SpanToRollUp[],
): Promise<void> {
  const deltas = tracePartDeltas(spans).sort(byKey((d) => [d.part.trace_id]));
  if (deltas.length === 0) return;
  const parts = deltas.map((d) => d.part);
  const col = <K extends keyof (typeof parts)[number]>(k: K) => parts.map((p) => p[k]);
  await tx.run(sql`INSERT INTO trace_parts (project_id, trace_id, started_at, ended_at, span_count,
       error_span_count, root_span_id, root_has_parent, root_started_at, root_name,
       root_service_name, root_operation, generic_name_spans, unmatched_route_spans,
       generic_operation_spans)
     SELECT ${projectId}, * FROM unnest(${col('trace_id')}::text[], ${col('started_at')}::bigint[],
     ${col('ended_at')}::float8[], ${col('span_count')}::bigint[],
     ${col('error_span_count')}::bigint[],
       ${col('root_span_id')}::text[], ${col('root_has_parent')}::int[],
       ${col('root_started_at')}::bigint[], ${col('root_name')}::text[],
       ${col('root_service_name')}::text[], ${col('root_operation')}::text[],
       ${col('generic_name_spans')}::bigint[],
       ${col('unmatched_route_spans')}::bigint[], ${col('generic_operation_spans')}::bigint[])
     ON CONFLICT (project_id, trace_id) DO UPDATE SET
       started_at = LEAST(trace_parts.started_at, excluded.started_at),
       ended_at = GREATEST(trace_parts.ended_at, excluded.ended_at),
       span_count = trace_parts.span_count + excluded.span_count,
       error_span_count = trace_parts.error_span_count + excluded.error_span_count,
       generic_name_spans = trace_parts.generic_name_spans + excluded.generic_name_spans,
       unmatched_route_spans = trace_parts.unmatched_route_spans + excluded.unmatched_route_spans,
       generic_operation_spans = trace_parts.generic_operation_spans + excluded.generic_operation_spans,
       root_span_id = CASE WHEN ${raw(BETTER)} THEN excluded.root_span_id ELSE trace_parts.root_span_id END,
       root_has_parent = CASE WHEN ${raw(BETTER)} THEN excluded.root_has_parent ELSE trace_parts.root_has_parent END,
       root_started_at = CASE WHEN ${raw(BETTER)} THEN excluded.root_started_at ELSE trace_parts.root_started_at END,
       root_name = CASE WHEN ${raw(BETTER)} THEN excluded.root_name ELSE trace_parts.root_name END,
       root_service_name = CASE WHEN ${raw(BETTER)} THEN excluded.root_service_name ELSE trace_parts.root_service_name END,
       root_operation = CASE WHEN ${raw(BETTER)} THEN excluded.root_operation ELSE trace_parts.root_operation END`);
  const facets = deltas
    .flatMap((d) => d.facets.map((f) => ({ trace: d.part.trace_id, ...f })))
    .sort(byKey((f) => [f.trace, f.facet, f.value]));
  await tx.run(sql`INSERT INTO trace_facets (project_id, trace_id, facet, value)
     SELECT ${projectId}, * FROM unnest(${facets.map((f) => f.trace)}::text[],
     ${facets.map((f) => f.facet)}::text[], ${facets.map((f) => f.value)}::text[])
     ON CONFLICT DO NOTHING`);
}
