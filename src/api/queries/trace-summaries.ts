import type { components } from '../schema.gen';

type TraceSummary = components['schemas']['TraceSummary'];
type SummarySpan = components['schemas']['TraceSummarySpan'];

const byStart = (a: SummarySpan, b: SummarySpan) =>
  Date.parse(a.started_at) - Date.parse(b.started_at) || a.span_id.localeCompare(b.span_id);

/**
 * One summary from the summaries of several projects' reads of one trace (the trace routes
 * take one project). Counts, services, releases, environments, error spans and issues add up
 * exactly. What depends on parent links across projects cannot be combined: the root is the
 * earliest root any part found, orphans are summed per part, and `slowest_path` is left empty
 * so the page walks the spans itself (see `slowestPathNodes`).
 */
export function combineTraceSummaries(parts: readonly TraceSummary[]): TraceSummary {
  const [first, ...rest] = parts;
  if (first === undefined) throw new Error('no summary to combine');
  if (rest.length === 0) return first;
  const startMs = Math.min(...parts.map((p) => Date.parse(p.started_at)));
  const endMs = Math.max(...parts.map((p) => Date.parse(p.ended_at)));
  const services = new Map<string, TraceSummary['services'][number]>();
  for (const part of parts) {
    for (const s of part.services) {
      const seen = services.get(s.service_name);
      services.set(
        s.service_name,
        seen
          ? {
              service_name: s.service_name,
              span_count: seen.span_count + s.span_count,
              error_span_count: seen.error_span_count + s.error_span_count,
            }
          : s,
      );
    }
  }
  const realRoots = parts.filter((p) => !p.root_span_missing && p.root_span !== null);
  const roots = (realRoots.length > 0 ? realRoots : parts)
    .map((p) => p.root_span)
    .filter((s): s is SummarySpan => s !== null)
    .sort(byStart);
  const union = (pick: (p: TraceSummary) => string[]) => [...new Set(parts.flatMap(pick))].sort();
  return {
    schema_version: 1,
    trace_id: first.trace_id,
    project_ids: union((p) => p.project_ids),
    started_at: new Date(startMs).toISOString(),
    ended_at: new Date(endMs).toISOString(),
    duration_ms: endMs - startMs,
    span_count: parts.reduce((n, p) => n + p.span_count, 0),
    error_span_count: parts.reduce((n, p) => n + p.error_span_count, 0),
    service_count: services.size,
    root_span: roots[0] ?? null,
    root_span_missing: realRoots.length === 0,
    orphan_span_count: parts.reduce((n, p) => n + p.orphan_span_count, 0),
    error_spans: parts.flatMap((p) => p.error_spans).sort(byStart),
    slowest_path: [],
    services: [...services.values()],
    releases: union((p) => p.releases),
    environments: union((p) => p.environments),
    issues: parts
      .flatMap((p) => p.issues)
      .sort((a, b) => Date.parse(b.occurred_at) - Date.parse(a.occurred_at)),
  };
}
