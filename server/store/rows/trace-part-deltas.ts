import { spanNaming } from '../../domain/trace-naming';

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

/** What one batch adds to a `trace_parts` row (both stores upsert it the same way). */
export type TracePartDelta = {
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
};

export type TraceFacet = { facet: 'service' | 'release' | 'environment'; value: string };

/** Root candidates: no parent first, then the earliest start, then the lower span id. */
const betterRoot = (a: SpanToRollUp, b: TracePartDelta) => {
  const aParent = a.parentSpanId === null ? 0 : 1;
  if (aParent !== b.root_has_parent) return aParent < b.root_has_parent;
  if (a.startedAt !== b.root_started_at) return a.startedAt < b.root_started_at;
  return a.spanId < b.root_span_id;
};

/**
 * The root comparison of an upsert: whether the incoming row (`excluded`) has a better root
 * than the stored one (`stored` names the target row). SET expressions all read the row as it
 * was, so each root column compares the same values.
 */
export const betterRootSql = (stored: string) =>
  `(excluded.root_has_parent, excluded.root_started_at, excluded.root_span_id) < (${stored}root_has_parent, ${stored}root_started_at, ${stored}root_span_id)`;

/**
 * The parts of the spans of one batch, one per trace, with the facets each trace gains. Spans
 * of one trace may arrive in any order and any number of batches: the stores add these to the
 * stored rows.
 */
export function tracePartDeltas(
  spans: readonly SpanToRollUp[],
): { part: TracePartDelta; facets: TraceFacet[] }[] {
  const parts = new Map<string, { part: TracePartDelta; facets: Map<string, TraceFacet> }>();
  const addFacet = (facets: Map<string, TraceFacet>, facet: TraceFacet['facet'], value: string) =>
    facets.set(`${facet}\u0000${value}`, { facet, value });
  for (const s of spans) {
    const naming = spanNaming({
      name: s.name,
      operation: s.operation,
      kind: s.spanKind,
      attributes: s.attributes,
    });
    let entry = parts.get(s.traceId);
    if (!entry) {
      entry = {
        part: {
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
        },
        facets: new Map(),
      };
      parts.set(s.traceId, entry);
    } else if (betterRoot(s, entry.part)) {
      entry.part.root_span_id = s.spanId;
      entry.part.root_has_parent = s.parentSpanId === null ? 0 : 1;
      entry.part.root_started_at = s.startedAt;
      entry.part.root_name = s.name;
      entry.part.root_service_name = s.service_name;
      entry.part.root_operation = s.operation;
    }
    const part = entry.part;
    part.started_at = Math.min(part.started_at, s.startedAt);
    part.ended_at = Math.max(part.ended_at, s.startedAt + s.durationMs);
    part.span_count += 1;
    if (s.status === 'error') part.error_span_count += 1;
    if (naming.genericName) part.generic_name_spans += 1;
    if (naming.unmatchedRoute) part.unmatched_route_spans += 1;
    if (naming.genericOperation) part.generic_operation_spans += 1;
    addFacet(entry.facets, 'service', s.service_name);
    addFacet(entry.facets, 'release', s.release);
    addFacet(entry.facets, 'environment', s.environment);
  }
  return [...parts.values()].map((e) => ({ part: e.part, facets: [...e.facets.values()] }));
}
