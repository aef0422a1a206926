import type { SpanKind } from './span-kind';

/**
 * The trace summary (spec "Trace spans and summary"): root span, error spans, services,
 * duration and the slowest path, from the spans of one trace in scope. No raw attributes.
 * Field names are ours (the spec does not show them); documented in the OpenAPI document.
 */

export type SummaryInputSpan = {
  projectId: string;
  spanId: string;
  parentSpanId: string | null;
  name: string;
  serviceName: string;
  operation: string | null;
  kind: SpanKind | null;
  /** Epoch ms. */
  startedAt: number;
  durationMs: number;
  status: 'ok' | 'error' | null;
  statusMessage: string | null;
  release: string;
  environment: string;
};

export type SummarySpan = {
  span_id: string;
  parent_span_id: string | null;
  name: string;
  service_name: string;
  operation: string | null;
  kind: SpanKind | null;
  started_at: string;
  duration_ms: number;
  status: 'error' | null;
  status_message: string | null;
};

export type TraceSummaryBody = {
  schema_version: 1;
  trace_id: string;
  project_ids: string[];
  started_at: string;
  ended_at: string;
  duration_ms: number;
  span_count: number;
  error_span_count: number;
  service_count: number;
  root_span: SummarySpan | null;
  root_span_missing: boolean;
  orphan_span_count: number;
  error_spans: SummarySpan[];
  slowest_path: SummarySpan[];
  services: { service_name: string; span_count: number; error_span_count: number }[];
  releases: string[];
  environments: string[];
};

const iso = (ms: number) => new Date(ms).toISOString();
/** Durations keep microseconds and drop float noise (0.1 + 0.2). */
export const roundMicros = (ms: number) => Math.round(ms * 1000) / 1000;

const byStart = (a: SummaryInputSpan, b: SummaryInputSpan) =>
  a.startedAt - b.startedAt || (a.spanId < b.spanId ? -1 : a.spanId > b.spanId ? 1 : 0);

function view(s: SummaryInputSpan): SummarySpan {
  return {
    span_id: s.spanId,
    parent_span_id: s.parentSpanId,
    name: s.name,
    service_name: s.serviceName,
    operation: s.operation,
    kind: s.kind,
    started_at: iso(s.startedAt),
    duration_ms: s.durationMs,
    status: s.status === 'error' ? 'error' : null,
    status_message: s.statusMessage,
  };
}

/**
 * What a summary is made of, however it was found: from every span here (`summarizeTrace`),
 * or by a store that computes it where the spans are (ClickHouse, in SQL).
 */
export type SummaryParts = {
  projectIds: readonly string[];
  /** Epoch ms: the earliest start, and the latest end (start + duration), at least the start. */
  startMs: number;
  endMs: number;
  spanCount: number;
  root: SummaryInputSpan | null;
  /** No span without a parent was received. */
  rootMissing: boolean;
  /** Spans whose parent is not in the trace, the root standing in for one not counted. */
  orphanCount: number;
  /** In span order (start, then span id). */
  errorSpans: readonly SummaryInputSpan[];
  slowestPath: readonly SummaryInputSpan[];
  services: readonly { service_name: string; span_count: number; error_span_count: number }[];
  releases: Iterable<string>;
  environments: Iterable<string>;
};

/**
 * The slowest path from `root`: at each level the child `next` names (the longest, ties to
 * the earlier start, then the lower span id), down to a leaf, stopping where a span id
 * repeats (a cycle of parents).
 */
export function walkSlowestPath<T>(
  root: T | null,
  spanIdOf: (t: T) => string,
  next: (spanId: string) => T | null,
): T[] {
  const path: T[] = [];
  const visited = new Set<string>();
  for (let at = root; at !== null && !visited.has(spanIdOf(at));) {
    visited.add(spanIdOf(at));
    path.push(at);
    at = next(spanIdOf(at));
  }
  return path;
}

/**
 * The root: the earliest span without a parent. When none was received, the earliest span
 * whose parent is not in the trace stands in for it and `root_span_missing` is true.
 * Slowest path: from the root, the child with the longest duration at each level (ties: the
 * earlier start, then the lower span id) down to a leaf.
 */
export function summarizeTrace(
  traceId: string,
  input: readonly SummaryInputSpan[],
): TraceSummaryBody | null {
  if (input.length === 0) return null;
  const spans = [...input].sort(byStart);
  const ids = new Set(spans.map((s) => s.spanId));
  const roots = spans.filter((s) => s.parentSpanId === null);
  const detached = spans.filter((s) => s.parentSpanId !== null && !ids.has(s.parentSpanId));
  const root = roots[0] ?? detached[0] ?? null;

  const children = new Map<string, SummaryInputSpan[]>();
  for (const s of spans) {
    if (s.parentSpanId === null || s === root) continue;
    const list = children.get(s.parentSpanId);
    if (list) list.push(s);
    else children.set(s.parentSpanId, [s]);
  }
  const slowestPath = walkSlowestPath(
    root,
    (s) => s.spanId,
    (spanId) => {
      let next: SummaryInputSpan | null = null;
      for (const c of children.get(spanId) ?? [])
        if (next === null || c.durationMs > next.durationMs) next = c;
      return next;
    },
  );

  const start = spans[0]!.startedAt;
  let end = start;
  for (const s of spans) end = Math.max(end, s.startedAt + s.durationMs);
  const services = new Map<string, { span_count: number; error_span_count: number }>();
  for (const s of spans) {
    const row = services.get(s.serviceName) ?? { span_count: 0, error_span_count: 0 };
    row.span_count += 1;
    if (s.status === 'error') row.error_span_count += 1;
    services.set(s.serviceName, row);
  }
  return summaryBody(traceId, {
    projectIds: spans.map((s) => s.projectId),
    startMs: start,
    endMs: end,
    spanCount: spans.length,
    root,
    rootMissing: roots.length === 0,
    orphanCount: detached.filter((s) => s !== root).length,
    errorSpans: spans.filter((s) => s.status === 'error'),
    slowestPath,
    services: [...services].map(([service_name, c]) => ({ service_name, ...c })),
    releases: spans.map((s) => s.release),
    environments: spans.map((s) => s.environment),
  });
}

/** The summary's body from its parts: facets sorted, services by span count then name. */
export function summaryBody(traceId: string, p: SummaryParts): TraceSummaryBody {
  const sorted = (values: Iterable<string>) => [...new Set(values)].sort();
  return {
    schema_version: 1,
    trace_id: traceId,
    project_ids: sorted(p.projectIds),
    started_at: iso(p.startMs),
    ended_at: iso(Math.ceil(p.endMs)),
    duration_ms: roundMicros(p.endMs - p.startMs),
    span_count: p.spanCount,
    error_span_count: p.errorSpans.length,
    service_count: p.services.length,
    root_span: p.root ? view(p.root) : null,
    root_span_missing: p.rootMissing,
    orphan_span_count: p.orphanCount,
    error_spans: p.errorSpans.map(view),
    slowest_path: p.slowestPath.map(view),
    services: [...p.services].sort(
      (a, b) => b.span_count - a.span_count || a.service_name.localeCompare(b.service_name),
    ),
    releases: sorted(p.releases),
    environments: sorted(p.environments),
  };
}
