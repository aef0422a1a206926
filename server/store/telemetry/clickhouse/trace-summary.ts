import { summaryBody, walkSlowestPath, type TraceSummaryBody } from '../../../domain/trace-summary';
import type { TraceScope } from '../../../core/store/telemetry/traces';
import { raw, sql } from '../../rows/sql';
import type { ChDb } from './clickhouse-db';
import { SPAN_ORDER, spansInScope, summarySpanEntries } from './traces';

/** A span row: its span id, and its identity (project and item id). */
type SpanKey = [spanId: string, projectId: string, id: string];

type Facts = {
  span_count: number;
  start_ms: number;
  end_ms: number;
  project_ids: string[];
  releases: string[];
  environments: string[];
  roots: number;
  detached: number;
  first_root: SpanKey;
  first_detached: SpanKey;
};

type ServiceRow = { service_name: string; span_count: number; error_span_count: number };

/** The order of spans (SPAN_ORDER) as a tuple, to pick the first of a group by. */
const ORDER_TUPLE = raw(`(${SPAN_ORDER})`);

/**
 * The trace summary computed where the spans are: counts, facets, root and orphans by
 * aggregation, the slowest path walked over each parent's longest child (one row a parent),
 * and full rows read only for the root, the path and the error spans. The same answer as
 * `summarizeTrace` over every span (trace-summary.test.ts compares them), without sending a
 * trace's 100,000 spans to this process to build it.
 */
export async function clickhouseTraceSummary(
  db: ChDb,
  scope: TraceScope,
): Promise<TraceSummaryBody | null> {
  if (scope.projectIds.length === 0) return null;
  const inScope = spansInScope(scope);
  const [facts, services, bestOut] = await Promise.all([
    db.one<Facts>(sql`SELECT toUInt64(count()) AS span_count,
        min(toUnixTimestamp64Milli(started_at)) AS start_ms,
        max(toFloat64(toUnixTimestamp64Milli(started_at)) + duration_ms) AS end_ms,
        groupUniqArray(toString(project_id)) AS project_ids,
        groupUniqArray(toString(release)) AS releases,
        groupUniqArray(toString(environment)) AS environments,
        toUInt64(countIf(parent_span_id IS NULL)) AS roots,
        toUInt64(countIf(is_detached)) AS detached,
        argMinIf((span_id, toString(project_id), id), ${ORDER_TUPLE}, parent_span_id IS NULL)
          AS first_root,
        argMinIf((span_id, toString(project_id), id), ${ORDER_TUPLE}, is_detached) AS first_detached
      FROM (
        SELECT project_id, id, span_id, started_at, received_at, duration_ms, release,
          environment, parent_span_id,
          toUInt8(ifNull(parent_span_id NOT IN (SELECT span_id FROM spans WHERE ${inScope}), 0))
            AS is_detached
        FROM spans WHERE ${inScope})`),
    db.rows<ServiceRow>(sql`SELECT toString(service_name) AS service_name,
        toUInt64(count()) AS span_count, toUInt64(countIf(status = 'error')) AS error_span_count
      FROM spans WHERE ${inScope} GROUP BY service_name`),
    // Each parent's longest child (ties: the earlier in span order), read beside the rest: the
    // root summarizeTrace leaves out of its parent's children has no parent in the trace (or
    // none at all), so the walk never asks for that parent's child.
    db.bytes(sql`SELECT parent_span_id,
        argMin((span_id, toString(project_id), id), (-duration_ms, ${raw(SPAN_ORDER)}))
      FROM spans WHERE ${inScope} AND parent_span_id IS NOT NULL
      GROUP BY parent_span_id FORMAT JSONCompact`),
  ]);
  if (!facts || facts.span_count === 0) return null;
  const root: SpanKey | null =
    facts.roots > 0 ? facts.first_root : facts.detached > 0 ? facts.first_detached : null;
  const { data } = JSON.parse(bestOut.toString()) as { data: [string, SpanKey][] };
  const best = new Map(data);
  const path = walkSlowestPath(
    root,
    (k) => k[0],
    (spanId) => best.get(spanId) ?? null,
  );

  // Full rows of the root, the path and the error spans, in one read.
  const ids = [...new Set(path.map(([, , id]) => id))];
  const entries = await summarySpanEntries(
    db,
    scope,
    ids.length > 0 ? sql`status = 'error' OR id IN ${ids}` : sql`status = 'error'`,
  );
  const byKey = new Map(entries.map((e) => [`${e.projectId}\u0000${e.id}`, e.span]));
  const slowestPath = path
    .map(([, p, id]) => byKey.get(`${p}\u0000${id}`))
    .filter((s) => s !== undefined);
  return summaryBody(scope.traceId, {
    projectIds: facts.project_ids,
    startMs: facts.start_ms,
    endMs: Math.max(facts.start_ms, facts.end_ms),
    spanCount: facts.span_count,
    root: slowestPath[0] ?? null,
    rootMissing: facts.roots === 0,
    orphanCount: facts.detached - (facts.roots === 0 && facts.detached > 0 ? 1 : 0),
    errorSpans: entries.filter((e) => e.span.status === 'error').map((e) => e.span),
    slowestPath,
    services,
    releases: facts.releases,
    environments: facts.environments,
  });
}
