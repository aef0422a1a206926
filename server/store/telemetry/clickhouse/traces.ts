import type { SummaryInputSpan } from '../../../domain/trace-summary';
import type {
  SpanRecord,
  TraceDiscoveryRow,
  TraceScope,
  TracesStore,
} from '../../../core/store/telemetry/traces';
import { exactConditions } from '../../rows/conditions';
import {
  toSpanRecord as toStoredSpanRecord,
  toSummarySpan as toStoredSummarySpan,
  type SpanRow as StoredSpanRow,
  type SummarySpanRow,
} from '../../rows/span-record';
import { and, raw, sql, type SqlFragment } from '../../rows/sql';
import { typed } from './ch-sql';
import type { ChDb } from './clickhouse-db';
import { time } from './ch-time';

/**
 * Spans of one trace a page at a time: a trace of any size is read in bounded memory (the
 * embedded engine answers a query as one buffer).
 */
export const SPAN_PAGE = 20_000;

/**
 * The order of a trace's spans: start, span id, then arrival (the time the batch was
 * received, then the item id, where the other stores have their row sequence), and the
 * project last so the order is total across projects.
 */
export const SPAN_ORDER = 'started_at, span_id, received_at, id, project_id';

const SUMMARY_COLUMNS = raw(`id, project_id, span_id, parent_span_id, name, operation, kind,
  service_name, environment, release, toUnixTimestamp64Milli(started_at) AS started_ms,
  duration_ms, status, status_message`);

const SPAN_COLUMNS = raw(`id, project_id, trace_id, span_id, parent_span_id, name, operation,
  kind, service_name, environment, release, toUnixTimestamp64Milli(started_at) AS started_ms,
  duration_ms, status, status_message, attributes, events, sdk_name, sdk_version`);

/** A summary span as read here: its start as epoch ms under another name (see COLUMNS). */
type SummaryRow = Omit<SummarySpanRow, 'trace_id' | 'started_at'> & { started_ms: number };

/** A `SummaryRow` as `JSONCompact` gives it, in SUMMARY_COLUMNS order. */
type SummaryTuple = [
  string,
  SummaryRow['project_id'],
  SummaryRow['span_id'],
  SummaryRow['parent_span_id'],
  SummaryRow['name'],
  SummaryRow['operation'],
  SummaryRow['kind'],
  SummaryRow['service_name'],
  SummaryRow['environment'],
  SummaryRow['release'],
  SummaryRow['started_ms'],
  SummaryRow['duration_ms'],
  SummaryRow['status'],
  SummaryRow['status_message'],
];

type SpanRow = Omit<StoredSpanRow, 'started_at'> & { started_ms: number };

const toSummarySpan = ({ started_ms, ...r }: SummaryRow): SummaryInputSpan =>
  toStoredSummarySpan({ ...r, trace_id: '', started_at: started_ms });

const toSpanRecord = ({ started_ms, ...r }: SpanRow): SpanRecord =>
  toStoredSpanRecord({ ...r, started_at: started_ms });

type DiscoveryRow = {
  trace_id: string;
  project_ids: string[];
  started_ms: number;
  ended_at: number;
  span_count: number;
  error_span_count: number;
  generic_name_spans: number;
  unmatched_route_spans: number;
  generic_operation_spans: number;
  root: [string, string, string | null];
  services: string[];
  releases: string[];
  environments: string[];
};

/** The spans of one trace in scope (the caller adds columns and order). */
export function spansInScope(scope: TraceScope): SqlFragment {
  return and([
    sql`project_id IN ${scope.projectIds}`,
    sql`trace_id = ${scope.traceId}`,
    ...exactConditions([
      ['release', scope.release],
      ['environment', scope.environment],
    ]),
  ]);
}

/** A summary span with its row's identity: its project and item id. */
export type SummarySpanEntry = { projectId: string; id: string; span: SummaryInputSpan };

/**
 * The summary's spans of one trace in scope (`also`: a further condition), in span order.
 * Rows as arrays, in one parse (a trace may have 100,000 spans).
 */
export async function summarySpanEntries(
  db: ChDb,
  scope: TraceScope,
  also: SqlFragment = raw('1'),
): Promise<SummarySpanEntry[]> {
  if (scope.projectIds.length === 0) return [];
  const out = await db.bytes(sql`SELECT ${SUMMARY_COLUMNS} FROM spans
    WHERE ${spansInScope(scope)} AND (${also}) ORDER BY ${raw(SPAN_ORDER)} FORMAT JSONCompact`);
  const { data } = JSON.parse(out.toString()) as { data: SummaryTuple[] };
  return data.map((t) => ({
    projectId: t[1],
    id: t[0],
    span: toSummarySpan({
      project_id: t[1],
      span_id: t[2],
      parent_span_id: t[3],
      name: t[4],
      operation: t[5],
      kind: t[6],
      service_name: t[7],
      environment: t[8],
      release: t[9],
      started_ms: t[10],
      duration_ms: t[11],
      status: t[12],
      status_message: t[13],
    }),
  }));
}

/**
 * Traces in ClickHouse: discovery from `trace_parts` (a row per trace and ingest batch,
 * clickhouse-schema.ts) combined per trace in one statement, spans read along the spans'
 * key `(project_id, trace_id, started_at, id)`. `issues` reads occurrences, which are not
 * here yet: the store composes it from the state store.
 */
export function clickhouseTraces(
  db: ChDb,
): Omit<TracesStore, 'issues' | 'spanListJson' | 'summary'> {
  async function* spanPages(scope: TraceScope, pageSize = SPAN_PAGE) {
    if (scope.projectIds.length === 0) return;
    for (const range of await startRanges(db, scope, pageSize)) {
      const rows = await db.rows<SpanRow>(sql`SELECT ${SPAN_COLUMNS} FROM spans
        WHERE ${spansInScope(scope)} AND ${range} ORDER BY ${raw(SPAN_ORDER)}`);
      if (rows.length > 0) yield rows.map(toSpanRecord);
    }
  }

  return {
    /**
     * Parts of the query's projects combined per trace: a trace's start, end and counts over
     * those projects, its best root candidate (no parent first, then the earliest start,
     * then the lower span id, then the project), its facets sorted. A filter names traces
     * with at least one part in the projects having the facet (or starting in range); the
     * combined start must still be in range.
     */
    async discover(q) {
      if (q.projectIds.length === 0) return [];
      const inProjects = sql`project_id IN ${q.projectIds}`;
      const where = [inProjects];
      if (q.since !== null)
        where.push(sql`trace_id IN (SELECT trace_id FROM trace_parts WHERE ${inProjects}
          AND started_at >= ${time(q.since)})`);
      const facets: [string, string | null][] = [
        ['services', q.serviceName],
        ['releases', q.release],
        ['environments', q.environment],
      ];
      for (const [column, value] of facets) {
        if (value === null) continue;
        where.push(sql`trace_id IN (SELECT trace_id FROM trace_parts WHERE ${inProjects}
          AND has(${raw(column)}, ${value}))`);
      }
      const having: SqlFragment[] = [];
      if (q.since !== null) having.push(sql`started_ms >= ${q.since}`);
      if (q.status === 'error') having.push(sql`error_span_count > 0`);
      if (q.status === 'ok') having.push(sql`error_span_count = 0`);
      if (q.minDurationMs !== null)
        having.push(sql`ended_at - started_ms >= ${typed(q.minDurationMs, 'Float64')}`);
      if (q.after !== null)
        having.push(sql`(started_ms < ${q.after.time}
          OR (started_ms = ${q.after.time} AND trace_id < ${q.after.traceId}))`);
      const rows = await db.rows<DiscoveryRow>(sql`SELECT trace_id,
          arraySort(groupUniqArray(project_id)) AS project_ids,
          toUnixTimestamp64Milli(min(started_at)) AS started_ms,
          max(ended_at) AS ended_at,
          toUInt64(sum(span_count)) AS span_count,
          toUInt64(sum(error_span_count)) AS error_span_count,
          toUInt64(sum(generic_name_spans)) AS generic_name_spans,
          toUInt64(sum(unmatched_route_spans)) AS unmatched_route_spans,
          toUInt64(sum(generic_operation_spans)) AS generic_operation_spans,
          argMin((root_name, toString(root_service_name), root_operation),
            (root_has_parent, root_started_at, root_span_id, project_id)) AS root,
          arraySort(groupUniqArrayArray(services)) AS services,
          arraySort(groupUniqArrayArray(releases)) AS releases,
          arraySort(groupUniqArrayArray(environments)) AS environments
        FROM trace_parts WHERE ${and(where)}
        GROUP BY trace_id
        ${having.length > 0 ? sql`HAVING ${and(having)}` : raw('')}
        ORDER BY started_ms DESC, trace_id DESC LIMIT ${q.limit}`);
      return rows.map((r): TraceDiscoveryRow => ({
        traceId: r.trace_id,
        projectIds: r.project_ids,
        startedAt: r.started_ms,
        endedAt: r.ended_at,
        spanCount: r.span_count,
        errorSpanCount: r.error_span_count,
        root: { name: r.root[0], serviceName: r.root[1], operation: r.root[2] },
        services: r.services,
        releases: r.releases,
        environments: r.environments,
        genericNameSpans: r.generic_name_spans,
        unmatchedRouteSpans: r.unmatched_route_spans,
        genericOperationSpans: r.generic_operation_spans,
      }));
    },

    async spans(scope) {
      const out: SpanRecord[] = [];
      for await (const page of spanPages(scope)) for (const s of page) out.push(s);
      return out;
    },

    spanPages,

    summarySpans: async (scope) => (await summarySpanEntries(db, scope)).map((e) => e.span),
  };
}

/**
 * A trace's spans in scope as ranges of start times of about `pageSize` spans each (every
 * `pageSize`-th of the sorted starts opens one; spans of one start stay in one range), as
 * conditions on `started_at`: each range reads only its own part of the spans' key, where a
 * page after a `LIMIT` would read, and sort, every later span again.
 */
export async function startRanges(
  db: ChDb,
  scope: TraceScope,
  pageSize: number,
): Promise<SqlFragment[]> {
  const starts =
    (
      await db.one<{ starts: number[] }>(sql`SELECT arrayDistinct(arrayMap(
          x -> toUnixTimestamp64Milli(x),
          arrayFilter((x, i) -> (i - 1) % ${pageSize} = 0, s, arrayEnumerate(s)))) AS starts
        FROM (SELECT arraySort(groupArray(started_at)) AS s FROM spans
          WHERE ${spansInScope(scope)})`)
    )?.starts ?? [];
  return starts.map((from, k) => {
    const to = starts[k + 1];
    return to === undefined
      ? sql`started_at >= ${time(from)}`
      : sql`started_at >= ${time(from)} AND started_at < ${time(to)}`;
  });
}

/** One span of a trace in scope, the earliest when its id repeats (investigations). */
export async function clickhouseSpan(
  db: ChDb,
  scope: TraceScope,
  spanId: string,
): Promise<SpanRecord | null> {
  if (scope.projectIds.length === 0) return null;
  const row = await db.one<SpanRow>(sql`SELECT ${SPAN_COLUMNS} FROM spans
    WHERE ${spansInScope(scope)} AND span_id = ${spanId}
    ORDER BY started_at, received_at, id, project_id LIMIT 1`);
  return row ? toSpanRecord(row) : null;
}
