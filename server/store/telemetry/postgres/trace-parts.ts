import { betterRootSql, tracePartDeltas, type SpanToRollUp } from '../../rows/trace-part-deltas';
import { byKey } from './key-order';
import type { Sql } from '../../postgres/pg-database';

const BETTER = betterRootSql('trace_parts.');

/**
 * Keeps `trace_parts` and `trace_facets` current: called inside the ingest transaction with
 * the spans it really stored, so a duplicate span is never counted twice. One statement for
 * the parts and one for the facets, whatever the number of traces; rows go in key order so
 * two transactions touching the same traces lock them in the same order.
 */
export async function rollUpTraceParts(
  sql: Sql,
  projectId: string,
  spans: readonly SpanToRollUp[],
): Promise<void> {
  const deltas = tracePartDeltas(spans).sort(byKey((d) => [d.part.trace_id]));
  if (deltas.length === 0) return;
  const parts = deltas.map((d) => d.part);
  const col = <K extends keyof (typeof parts)[number]>(k: K) => parts.map((p) => p[k]);
  await sql.run(
    `INSERT INTO trace_parts (project_id, trace_id, started_at, ended_at, span_count,
       error_span_count, root_span_id, root_has_parent, root_started_at, root_name,
       root_service_name, root_operation, generic_name_spans, unmatched_route_spans,
       generic_operation_spans)
     SELECT $1, * FROM unnest($2::text[], $3::bigint[], $4::float8[], $5::bigint[], $6::bigint[],
       $7::text[], $8::int[], $9::bigint[], $10::text[], $11::text[], $12::text[], $13::bigint[],
       $14::bigint[], $15::bigint[])
     ON CONFLICT (project_id, trace_id) DO UPDATE SET
       started_at = LEAST(trace_parts.started_at, excluded.started_at),
       ended_at = GREATEST(trace_parts.ended_at, excluded.ended_at),
       span_count = trace_parts.span_count + excluded.span_count,
       error_span_count = trace_parts.error_span_count + excluded.error_span_count,
       generic_name_spans = trace_parts.generic_name_spans + excluded.generic_name_spans,
       unmatched_route_spans = trace_parts.unmatched_route_spans + excluded.unmatched_route_spans,
       generic_operation_spans = trace_parts.generic_operation_spans + excluded.generic_operation_spans,
       root_span_id = CASE WHEN ${BETTER} THEN excluded.root_span_id ELSE trace_parts.root_span_id END,
       root_has_parent = CASE WHEN ${BETTER} THEN excluded.root_has_parent ELSE trace_parts.root_has_parent END,
       root_started_at = CASE WHEN ${BETTER} THEN excluded.root_started_at ELSE trace_parts.root_started_at END,
       root_name = CASE WHEN ${BETTER} THEN excluded.root_name ELSE trace_parts.root_name END,
       root_service_name = CASE WHEN ${BETTER} THEN excluded.root_service_name ELSE trace_parts.root_service_name END,
       root_operation = CASE WHEN ${BETTER} THEN excluded.root_operation ELSE trace_parts.root_operation END`,
    [
      projectId,
      col('trace_id'),
      col('started_at'),
      col('ended_at'),
      col('span_count'),
      col('error_span_count'),
      col('root_span_id'),
      col('root_has_parent'),
      col('root_started_at'),
      col('root_name'),
      col('root_service_name'),
      col('root_operation'),
      col('generic_name_spans'),
      col('unmatched_route_spans'),
      col('generic_operation_spans'),
    ],
  );
  const facets = deltas
    .flatMap((d) => d.facets.map((f) => ({ trace: d.part.trace_id, ...f })))
    .sort(byKey((f) => [f.trace, f.facet, f.value]));
  await sql.run(
    `INSERT INTO trace_facets (project_id, trace_id, facet, value)
     SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[])
     ON CONFLICT DO NOTHING`,
    [projectId, facets.map((f) => f.trace), facets.map((f) => f.facet), facets.map((f) => f.value)],
  );
}
