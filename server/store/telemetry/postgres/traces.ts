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
import type { TraceScope, TracesStore } from '../../../core/store/telemetry/traces';
import type { PgDb } from '../../postgres/pg-database';

/** Appends a parameter and returns its `$n`. */
function param(args: unknown[], value: unknown): string {
  args.push(value);
  return `$${String(args.length)}`;
}

/** Rows of one trace in scope (spans or occurrences); the caller adds columns and order. */
function scopeWhere(scope: TraceScope): { where: string; args: unknown[] } {
  const args: unknown[] = [scope.traceId, scope.projectIds];
  let where = 'trace_id = $1 AND project_id = ANY($2::text[])';
  if (scope.release !== null) where += ` AND release = ${param(args, scope.release)}`;
  if (scope.environment !== null) where += ` AND environment = ${param(args, scope.environment)}`;
  return { where, args };
}

/** Traces read from `trace_parts` and `trace_facets`, which ingestion keeps (trace-parts.ts). */
export function pgTraces(db: PgDb): TracesStore {
  return {
    /**
     * Discovery combines the parts of each trace in the projects of the query. Parts starting
     * in range name the candidates; the combined start must still be in range (a trace whose
     * spans in another project started earlier is older than `since`).
     */
    async discover(q) {
      if (q.projectIds.length === 0) return [];
      const args: unknown[] = [q.projectIds];
      const inScope = 'project_id = ANY($1::text[])';
      const where = [inScope];
      if (q.since !== null)
        where.push(
          `trace_id IN (SELECT trace_id FROM trace_parts WHERE ${inScope}
             AND started_at >= ${param(args, q.since)})`,
        );
      const facets: [string, string | null][] = [
        ['service', q.serviceName],
        ['release', q.release],
        ['environment', q.environment],
      ];
      for (const [facet, value] of facets) {
        if (value === null) continue;
        where.push(
          `trace_id IN (SELECT trace_id FROM trace_facets WHERE facet = ${param(args, facet)}
             AND value = ${param(args, value)} AND ${inScope})`,
        );
      }
      const having: string[] = [];
      if (q.since !== null) having.push(`MIN(started_at) >= ${param(args, q.since)}`);
      if (q.status === 'error') having.push('SUM(error_span_count) > 0');
      if (q.status === 'ok') having.push('SUM(error_span_count) = 0');
      if (q.minDurationMs !== null)
        having.push(`MAX(ended_at) - MIN(started_at) >= ${param(args, q.minDurationMs)}`);
      if (q.after !== null) {
        const time = param(args, q.after.time);
        having.push(
          `(MIN(started_at) < ${time} OR (MIN(started_at) = ${time} AND trace_id < ${param(args, q.after.traceId)}))`,
        );
      }
      const rows = await db.rows<CombinedTraceRow>(
        `${COMBINED_TRACE_SELECT}
         FROM trace_parts WHERE ${where.join(' AND ')}
         GROUP BY trace_id
         ${having.length > 0 ? `HAVING ${having.join(' AND ')}` : ''}
         ORDER BY started_at DESC, trace_id DESC LIMIT ${param(args, q.limit)}`,
        args,
      );
      if (rows.length === 0) return [];

      const ids = rows.map((r) => r.trace_id);
      const [parts, facetRows] = await Promise.all([
        db.rows<TracePartRow>(
          `SELECT ${TRACE_PART_COLUMNS} FROM trace_parts
           WHERE trace_id = ANY($1::text[]) AND project_id = ANY($2::text[])
           ORDER BY ${TRACE_PART_ORDER}`,
          [ids, q.projectIds],
        ),
        db.rows<TraceFacetRow>(
          `SELECT DISTINCT trace_id, facet, value FROM trace_facets
           WHERE trace_id = ANY($1::text[]) AND project_id = ANY($2::text[])
           ORDER BY trace_id, facet, value`,
          [ids, q.projectIds],
        ),
      ]);
      return discoveryRows(rows, parts, facetRows);
    },

    async spans(scope) {
      if (scope.projectIds.length === 0) return [];
      const { where, args } = scopeWhere(scope);
      const rows = await db.rows<SpanRow>(
        `SELECT ${SPAN_COLUMNS} FROM spans WHERE ${where} ORDER BY started_at, span_id, seq`,
        args,
      );
      return rows.map(toSpanRecord);
    },

    async summarySpans(scope) {
      if (scope.projectIds.length === 0) return [];
      const { where, args } = scopeWhere(scope);
      const rows = await db.rows<SummarySpanRow>(
        `SELECT ${SUMMARY_SPAN_COLUMNS} FROM spans WHERE ${where}
         ORDER BY started_at, span_id, seq`,
        args,
      );
      return rows.map(toSummarySpan);
    },

    async issues(scope) {
      if (scope.projectIds.length === 0) return [];
      const { where, args } = scopeWhere(scope);
      const rows = await db.rows<TraceOccurrenceRow>(
        `SELECT issue_id, project_id, title, id, span_id, occurred_at FROM issue_occurrences
         WHERE ${where} ORDER BY occurred_at DESC, id DESC`,
        args,
      );
      return traceIssueRefs(rows);
    },
  };
}
