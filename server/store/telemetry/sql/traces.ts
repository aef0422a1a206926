import {
  SPAN_COLUMNS,
  SUMMARY_SPAN_COLUMNS,
  spanRowJson,
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
import { summarizeTrace } from '../../../domain/trace-summary';
import { exactConditions } from '../../rows/conditions';
import { and, raw, sql, type SqlDialect, type SqlFragment, type SqlRunner } from '../../rows/sql';
import type { TraceScope, TracesStore } from '../../../core/store/telemetry/traces';

/** Spans a page of `spanPages` holds unless told. */
const SPAN_PAGE = 20_000;

/**
 * Traces read from `trace_parts` and `trace_facets`, which ingestion keeps (trace-parts.ts),
 * and from the spans and occurrences of one trace: the same SQL on both engines.
 */
export function sqlTraces(db: SqlRunner, d: SqlDialect): TracesStore {
  /** Rows of one trace in scope (spans or occurrences); the caller adds columns and order. */
  const inScope = (scope: TraceScope): SqlFragment =>
    and([
      sql`trace_id = ${scope.traceId}`,
      d.anyOf('project_id', scope.projectIds),
      ...exactConditions([
        ['release', scope.release],
        ['environment', scope.environment],
      ]),
    ]);

  /** Rows of a trace's spans in scope after the last one read, in (start, span id, row sequence) order. */
  async function* rowPages(scope: TraceScope, pageSize: number): AsyncGenerator<SpanRow[]> {
    if (scope.projectIds.length === 0) return;
    let after: SqlFragment = raw('');
    for (;;) {
      const rows = await db.rows<SpanRow & { seq: number }>(sql`SELECT ${raw(SPAN_COLUMNS)}, seq
        FROM spans WHERE ${inScope(scope)} ${after}
        ORDER BY started_at, span_id, seq LIMIT ${pageSize}`);
      if (rows.length > 0) yield rows;
      const last = rows[rows.length - 1];
      if (!last || rows.length < pageSize) return;
      // The plain bound keeps the index range; the rest decides ties.
      after = sql`AND started_at >= ${last.started_at} AND (started_at > ${last.started_at}
        OR (started_at = ${last.started_at} AND (span_id > ${last.span_id}
          OR (span_id = ${last.span_id} AND seq > ${last.seq}))))`;
    }
  }

  async function summarySpans(scope: TraceScope) {
    if (scope.projectIds.length === 0) return [];
    const rows = await db.rows<SummarySpanRow>(sql`SELECT ${raw(SUMMARY_SPAN_COLUMNS)} FROM spans
      WHERE ${inScope(scope)} ORDER BY started_at, span_id, seq`);
    return rows.map(toSummarySpan);
  }

  return {
    /**
     * Discovery combines the parts of each trace in the projects of the query. Parts starting
     * in range name the candidates; the combined start must still be in range (a trace whose
     * spans in another project started earlier is older than `since`).
     */
    async discover(q) {
      if (q.projectIds.length === 0) return [];
      const inProjects = d.anyOf('project_id', q.projectIds);
      const where = [inProjects];
      if (q.since !== null)
        where.push(sql`trace_id IN (SELECT trace_id FROM trace_parts WHERE ${inProjects}
          AND started_at >= ${q.since})`);
      const facets: [string, string | null][] = [
        ['service', q.serviceName],
        ['release', q.release],
        ['environment', q.environment],
      ];
      for (const [facet, value] of facets) {
        if (value === null) continue;
        where.push(sql`trace_id IN (SELECT trace_id FROM trace_facets WHERE facet = ${facet}
          AND value = ${value} AND ${inProjects})`);
      }
      const having: SqlFragment[] = [];
      if (q.since !== null) having.push(sql`MIN(started_at) >= ${q.since}`);
      if (q.status === 'error') having.push(sql`SUM(error_span_count) > 0`);
      if (q.status === 'ok') having.push(sql`SUM(error_span_count) = 0`);
      if (q.minDurationMs !== null)
        having.push(sql`MAX(ended_at) - MIN(started_at) >= ${q.minDurationMs}`);
      if (q.after !== null)
        having.push(sql`(MIN(started_at) < ${q.after.time}
          OR (MIN(started_at) = ${q.after.time} AND trace_id < ${q.after.traceId}))`);
      const rows = await db.rows<CombinedTraceRow>(
        sql`${raw(COMBINED_TRACE_SELECT)}
          FROM trace_parts WHERE ${and(where)}
          GROUP BY trace_id
          ${having.length > 0 ? sql`HAVING ${and(having)}` : raw('')}
          ORDER BY started_at DESC, trace_id DESC LIMIT ${q.limit}`,
      );
      if (rows.length === 0) return [];

      const ofTraces = and([
        d.anyOf(
          'trace_id',
          rows.map((r) => r.trace_id),
        ),
        inProjects,
      ]);
      const [parts, facetRows] = await Promise.all([
        db.rows<TracePartRow>(sql`SELECT ${raw(TRACE_PART_COLUMNS)} FROM trace_parts
          WHERE ${ofTraces} ORDER BY ${raw(TRACE_PART_ORDER)}`),
        db.rows<TraceFacetRow>(sql`SELECT DISTINCT trace_id, facet, value FROM trace_facets
          WHERE ${ofTraces} ORDER BY trace_id, facet, value`),
      ]);
      return discoveryRows(rows, parts, facetRows);
    },

    async spans(scope) {
      if (scope.projectIds.length === 0) return [];
      const rows = await db.rows<SpanRow>(sql`SELECT ${raw(SPAN_COLUMNS)} FROM spans
        WHERE ${inScope(scope)} ORDER BY started_at, span_id, seq`);
      return rows.map(toSpanRecord);
    },

    async *spanPages(scope, pageSize = SPAN_PAGE) {
      for await (const rows of rowPages(scope, pageSize)) yield rows.map(toSpanRecord);
    },

    /** The list's JSON a page at a time, each span's built from its row (`spanRowJson`). */
    async *spanListJson(scope) {
      let first = true;
      for await (const rows of rowPages(scope, SPAN_PAGE)) {
        yield Buffer.from(`${first ? '[' : ','}${rows.map(spanRowJson).join(',')}`);
        first = false;
      }
      yield Buffer.from(first ? '[]' : ']');
    },

    summarySpans,

    async summary(scope) {
      return summarizeTrace(scope.traceId, await summarySpans(scope));
    },

    async issues(scope) {
      if (scope.projectIds.length === 0) return [];
      const rows = await db.rows<TraceOccurrenceRow>(sql`SELECT issue_id, project_id, title, id,
          span_id, occurred_at
        FROM issue_occurrences WHERE ${inScope(scope)} ORDER BY occurred_at DESC, id DESC`);
      return traceIssueRefs(rows);
    },
  };
}
