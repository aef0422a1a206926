import type { TraceDiscoveryRow, TraceIssueRef } from '../../core/store/telemetry/traces';

/** One trace's parts combined over the projects of a discovery query. */
export type CombinedTraceRow = {
  trace_id: string;
  started_at: number;
  ended_at: number;
  span_count: number;
  error_span_count: number;
  generic_name_spans: number;
  unmatched_route_spans: number;
  generic_operation_spans: number;
};

/** Selects `CombinedTraceRow`s from `trace_parts`; the caller adds WHERE, GROUP BY trace_id… */
export const COMBINED_TRACE_SELECT = `SELECT trace_id, MIN(started_at) AS started_at,
  MAX(ended_at) AS ended_at, SUM(span_count) AS span_count,
  SUM(error_span_count) AS error_span_count, SUM(generic_name_spans) AS generic_name_spans,
  SUM(unmatched_route_spans) AS unmatched_route_spans,
  SUM(generic_operation_spans) AS generic_operation_spans`;

/** A trace's part in one project, with its best root candidate. */
export type TracePartRow = {
  project_id: string;
  trace_id: string;
  root_span_id: string;
  root_has_parent: number;
  root_started_at: number;
  root_name: string;
  root_service_name: string;
  root_operation: string | null;
};

export const TRACE_PART_COLUMNS = `project_id, trace_id, root_span_id, root_has_parent,
  root_started_at, root_name, root_service_name, root_operation`;

/** Parts ordered best root first within each trace. */
export const TRACE_PART_ORDER =
  'trace_id, root_has_parent, root_started_at, root_span_id, project_id';

export type TraceFacetRow = { trace_id: string; facet: string; value: string };

/**
 * The discovery rows of the combined traces, from their parts (ordered by
 * `TRACE_PART_ORDER`) and their distinct facets (ordered by trace, facet, value).
 */
export function discoveryRows(
  rows: CombinedTraceRow[],
  parts: TracePartRow[],
  facetRows: TraceFacetRow[],
): TraceDiscoveryRow[] {
  const byTrace = new Map<string, { parts: TracePartRow[]; facets: Record<string, string[]> }>();
  for (const r of rows)
    byTrace.set(r.trace_id, { parts: [], facets: { service: [], release: [], environment: [] } });
  for (const p of parts) byTrace.get(p.trace_id)?.parts.push(p);
  for (const f of facetRows) byTrace.get(f.trace_id)?.facets[f.facet]?.push(f.value);

  return rows.map((r) => {
    const t = byTrace.get(r.trace_id)!;
    // Ordered best root first (see TRACE_PART_ORDER).
    const root = t.parts[0]!;
    return {
      traceId: r.trace_id,
      projectIds: [...new Set(t.parts.map((p) => p.project_id))].sort(),
      startedAt: r.started_at,
      endedAt: r.ended_at,
      spanCount: r.span_count,
      errorSpanCount: r.error_span_count,
      root: {
        name: root.root_name,
        serviceName: root.root_service_name,
        operation: root.root_operation,
      },
      services: t.facets.service ?? [],
      releases: t.facets.release ?? [],
      environments: t.facets.environment ?? [],
      genericNameSpans: r.generic_name_spans,
      unmatchedRouteSpans: r.unmatched_route_spans,
      genericOperationSpans: r.generic_operation_spans,
    };
  });
}

export type TraceOccurrenceRow = {
  issue_id: string;
  project_id: string;
  title: string;
  id: string;
  span_id: string | null;
  occurred_at: number;
};

/** Each issue once, with its newest occurrence: `rows` come newest first. */
export function traceIssueRefs(rows: TraceOccurrenceRow[]): TraceIssueRef[] {
  const seen = new Set<string>();
  return rows
    .filter((r) => !seen.has(r.issue_id) && seen.add(r.issue_id))
    .map((r) => ({
      issueId: r.issue_id,
      projectId: r.project_id,
      title: r.title,
      occurrenceId: r.id,
      spanId: r.span_id,
      occurredAt: r.occurred_at,
    }));
}
