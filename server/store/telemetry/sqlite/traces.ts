import type { SummaryInputSpan } from '../../../domain/trace-summary';
import type { Db } from '../../sqlite/database';
import {
  SPAN_COLUMNS,
  SUMMARY_SPAN_COLUMNS,
  toSpanRecord,
  toSummarySpan,
  type SpanRow,
  type SummarySpanRow,
} from '../../rows/span-record';
import {
  COMBINED_TRACE_SELECT,
  TRACE_PART_COLUMNS,
  TRACE_PART_ORDER,
  discoveryRows,
  traceIssueRefs,
  type CombinedTraceRow,
  type TraceFacetRow,
  type TraceOccurrenceRow,
  type TracePartRow,
} from '../../rows/trace-discovery';
import type {
  SpanRecord,
  TraceDiscoveryQuery,
  TraceDiscoveryRow,
  TraceScope,
  TracesStore,
} from '../../../core/store/telemetry/traces';
import { backfillTraceParts, type TraceRollup } from './trace-parts';

const marks = (n: number) => Array.from({ length: n }, () => '?').join(', ');

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
      .prepare<(string | number)[], CombinedTraceRow>(
        `${COMBINED_TRACE_SELECT}
         FROM trace_parts WHERE ${where.join(' AND ')}
         GROUP BY trace_id
         ${having.length > 0 ? `HAVING ${having.join(' AND ')}` : ''}
         ORDER BY started_at DESC, trace_id DESC LIMIT ?`,
      )
      .all(...args);
    if (rows.length === 0) return [];

    const ids = rows.map((r) => r.trace_id);
    const parts = db
      .prepare<string[], TracePartRow>(
        `SELECT ${TRACE_PART_COLUMNS}
         FROM trace_parts WHERE trace_id IN (${marks(ids.length)}) AND ${inScope}
         ORDER BY ${TRACE_PART_ORDER}`,
      )
      .all(...ids, ...q.projectIds);
    const facetRows = db
      .prepare<string[], TraceFacetRow>(
        `SELECT DISTINCT trace_id, facet, value FROM trace_facets
         WHERE trace_id IN (${marks(ids.length)}) AND ${inScope} ORDER BY trace_id, facet, value`,
      )
      .all(...ids, ...q.projectIds);

    return discoveryRows(rows, parts, facetRows);
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
      .prepare<string[], SummarySpanRow>(
        `SELECT ${SUMMARY_SPAN_COLUMNS} FROM spans WHERE ${where} ORDER BY started_at, span_id, seq`,
      )
      .all(...args)
      .map(toSummarySpan);
  }

  function issues(scope: TraceScope) {
    if (scope.projectIds.length === 0) return [];
    const { where, args } = scopeWhere(scope);
    const rows = db
      .prepare<string[], TraceOccurrenceRow>(
        `SELECT issue_id, project_id, title, id, span_id, occurred_at FROM issue_occurrences
         WHERE ${where} ORDER BY occurred_at DESC, id DESC`,
      )
      .all(...args);
    return traceIssueRefs(rows);
  }

  return {
    discover: async (q) => discover(q),
    spans: async (scope) => spans(scope),
    summarySpans: async (scope) => summarySpans(scope),
    issues: async (scope) => issues(scope),
  };
}
