import type { SpanKind } from '../../ingest/normalized';
import type { SummaryInputSpan } from '../../domain/trace-summary';
import type { Db } from '../database';
import type {
  SpanRecord,
  TraceDiscoveryQuery,
  TraceDiscoveryRow,
  TraceScope,
  TracesStore,
} from '../store';
import { backfillTraceParts, type TraceRollup } from './trace-parts';

const marks = (n: number) => Array.from({ length: n }, () => '?').join(', ');

type CombinedRow = {
  trace_id: string;
  started_at: number;
  ended_at: number;
  span_count: number;
  error_span_count: number;
  generic_name_spans: number;
  unmatched_route_spans: number;
  generic_operation_spans: number;
};

type PartRow = {
  project_id: string;
  trace_id: string;
  root_span_id: string;
  root_has_parent: number;
  root_started_at: number;
  root_name: string;
  root_service_name: string;
  root_operation: string | null;
};

export type SpanRow = {
  id: string;
  project_id: string;
  trace_id: string;
  span_id: string;
  parent_span_id: string | null;
  name: string;
  operation: string | null;
  kind: SpanKind | null;
  service_name: string;
  environment: string;
  release: string;
  started_at: number;
  duration_ms: number;
  status: 'ok' | 'error' | null;
  status_message: string | null;
  attributes: string;
  events: string;
  sdk_name: string;
  sdk_version: string;
};

/** The columns every span read selects, in `SpanRow` order. */
export const SPAN_COLUMNS = `id, project_id, trace_id, span_id, parent_span_id, name, operation, kind,
  service_name, environment, release, started_at, duration_ms, status, status_message, attributes,
  events, sdk_name, sdk_version`;

export const toSpanRecord = (r: SpanRow): SpanRecord => ({
  id: r.id,
  projectId: r.project_id,
  traceId: r.trace_id,
  spanId: r.span_id,
  parentSpanId: r.parent_span_id,
  name: r.name,
  operation: r.operation,
  spanKind: r.kind,
  service_name: r.service_name,
  environment: r.environment,
  release: r.release,
  startedAt: r.started_at,
  durationMs: r.duration_ms,
  status: r.status,
  statusMessage: r.status_message,
  attributes: JSON.parse(r.attributes) as Record<string, unknown>,
  events: JSON.parse(r.events) as SpanRecord['events'],
  sdk: { name: r.sdk_name, version: r.sdk_version },
});

/** `spans` rows of one trace in scope; the caller adds the columns and the order. */
function scopeWhere(scope: TraceScope): { where: string; args: string[] } {
  const args: string[] = [scope.traceId, ...scope.projectIds];
  let where = `trace_id = ? AND project_id IN (${marks(scope.projectIds.length)})`;
  if (scope.release !== null) {
    where += ' AND release = ?';
    args.push(scope.release);
  }
  if (scope.environment !== null) {
    where += ' AND environment = ?';
    args.push(scope.environment);
  }
  return { where, args };
}

export function sqliteTraces(db: Db, rollup: TraceRollup): TracesStore {
  backfillTraceParts(db, rollup);

  /**
   * Discovery combines the parts of each trace in the projects of the query. Parts starting
   * in range name the candidates; the combined start must still be in range (a trace whose
   * spans in another project started earlier is older than `since`).
   */
  function discover(q: TraceDiscoveryQuery): TraceDiscoveryRow[] {
    if (q.projectIds.length === 0) return [];
    const inScope = `project_id IN (${marks(q.projectIds.length)})`;
    const where: string[] = [inScope];
    const args: (string | number)[] = [...q.projectIds];
    if (q.since !== null) {
      where.push(
        `trace_id IN (SELECT trace_id FROM trace_parts WHERE ${inScope} AND started_at >= ?)`,
      );
      args.push(...q.projectIds, q.since);
    }
    const facets: [string, string | null][] = [
      ['service', q.serviceName],
      ['release', q.release],
      ['environment', q.environment],
    ];
    for (const [facet, value] of facets) {
      if (value === null) continue;
      where.push(
        `trace_id IN (SELECT trace_id FROM trace_facets WHERE facet = ? AND value = ? AND ${inScope})`,
      );
      args.push(facet, value, ...q.projectIds);
    }
    const having: string[] = [];
    if (q.since !== null) {
      having.push('MIN(started_at) >= ?');
      args.push(q.since);
    }
    if (q.status === 'error') having.push('SUM(error_span_count) > 0');
    if (q.status === 'ok') having.push('SUM(error_span_count) = 0');
    if (q.minDurationMs !== null) {
      having.push('MAX(ended_at) - MIN(started_at) >= ?');
      args.push(q.minDurationMs);
    }
    if (q.after !== null) {
      having.push('(MIN(started_at) < ? OR (MIN(started_at) = ? AND trace_id < ?))');
      args.push(q.after.time, q.after.time, q.after.traceId);
    }
    args.push(q.limit);
    const rows = db
      .prepare<(string | number)[], CombinedRow>(
        `SELECT trace_id, MIN(started_at) AS started_at, MAX(ended_at) AS ended_at,
           SUM(span_count) AS span_count, SUM(error_span_count) AS error_span_count,
           SUM(generic_name_spans) AS generic_name_spans,
           SUM(unmatched_route_spans) AS unmatched_route_spans,
           SUM(generic_operation_spans) AS generic_operation_spans
         FROM trace_parts WHERE ${where.join(' AND ')}
         GROUP BY trace_id
         ${having.length > 0 ? `HAVING ${having.join(' AND ')}` : ''}
         ORDER BY started_at DESC, trace_id DESC LIMIT ?`,
      )
      .all(...args);
    if (rows.length === 0) return [];

    const ids = rows.map((r) => r.trace_id);
    const parts = db
      .prepare<string[], PartRow>(
        `SELECT project_id, trace_id, root_span_id, root_has_parent, root_started_at, root_name,
           root_service_name, root_operation
         FROM trace_parts WHERE trace_id IN (${marks(ids.length)}) AND ${inScope}
         ORDER BY trace_id, root_has_parent, root_started_at, root_span_id, project_id`,
      )
      .all(...ids, ...q.projectIds);
    const facetRows = db
      .prepare<string[], { trace_id: string; facet: string; value: string }>(
        `SELECT DISTINCT trace_id, facet, value FROM trace_facets
         WHERE trace_id IN (${marks(ids.length)}) AND ${inScope} ORDER BY trace_id, facet, value`,
      )
      .all(...ids, ...q.projectIds);

    const byTrace = new Map<string, { parts: PartRow[]; facets: Record<string, string[]> }>();
    for (const id of ids)
      byTrace.set(id, { parts: [], facets: { service: [], release: [], environment: [] } });
    for (const p of parts) byTrace.get(p.trace_id)?.parts.push(p);
    for (const f of facetRows) byTrace.get(f.trace_id)?.facets[f.facet]?.push(f.value);

    return rows.map((r) => {
      const t = byTrace.get(r.trace_id)!;
      // Ordered best root first (see the query).
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

  function spans(scope: TraceScope): SpanRecord[] {
    if (scope.projectIds.length === 0) return [];
    const { where, args } = scopeWhere(scope);
    return db
      .prepare<string[], SpanRow>(
        `SELECT ${SPAN_COLUMNS} FROM spans WHERE ${where} ORDER BY started_at, span_id, seq`,
      )
      .all(...args)
      .map(toSpanRecord);
  }

  function summarySpans(scope: TraceScope): SummaryInputSpan[] {
    if (scope.projectIds.length === 0) return [];
    const { where, args } = scopeWhere(scope);
    return db
      .prepare<
        string[],
        Omit<SpanRow, 'id' | 'attributes' | 'events' | 'sdk_name' | 'sdk_version'>
      >(
        `SELECT project_id, trace_id, span_id, parent_span_id, name, operation, kind, service_name,
           environment, release, started_at, duration_ms, status, status_message
         FROM spans WHERE ${where} ORDER BY started_at, span_id, seq`,
      )
      .all(...args)
      .map((r) => ({
        projectId: r.project_id,
        spanId: r.span_id,
        parentSpanId: r.parent_span_id,
        name: r.name,
        serviceName: r.service_name,
        operation: r.operation,
        kind: r.kind,
        startedAt: r.started_at,
        durationMs: r.duration_ms,
        status: r.status,
        statusMessage: r.status_message,
        release: r.release,
        environment: r.environment,
      }));
  }

  function issues(scope: TraceScope) {
    if (scope.projectIds.length === 0) return [];
    const { where, args } = scopeWhere(scope);
    const rows = db
      .prepare<
        string[],
        {
          issue_id: string;
          project_id: string;
          title: string;
          id: string;
          span_id: string | null;
          occurred_at: number;
        }
      >(
        `SELECT issue_id, project_id, title, id, span_id, occurred_at FROM issue_occurrences
         WHERE ${where} ORDER BY occurred_at DESC, id DESC`,
      )
      .all(...args);
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

  return {
    discover: async (q) => discover(q),
    spans: async (scope) => spans(scope),
    summarySpans: async (scope) => summarySpans(scope),
    issues: async (scope) => issues(scope),
  };
}
