import type { SpanTree } from './span-tree';
import type { TraceSpan, TraceSummary } from '../../api/queries/traces';

export type ServiceCount = { service_name: string; span_count: number; error_span_count: number };

/** What the page's header says about the trace. */
export type TraceOverview = {
  rootName: string | null;
  rootService: string | null;
  rootMissing: boolean;
  durationMs: number;
  spanCount: number;
  errorCount: number;
  orphanCount: number;
  /** Most spans first. */
  services: ServiceCount[];
  releases: string[];
  environments: string[];
  issues: TraceSummary['issues'];
  /** The header comes from the service's summary (false: worked out from the spans). */
  fromSummary: boolean;
};

/**
 * The header's facts: the service's summary when it answered, else the same facts counted
 * from the spans (the summary is a separate read that can fail on its own).
 */
export function traceOverview(tree: SpanTree, summary: TraceSummary | null): TraceOverview {
  if (summary !== null) {
    return {
      rootName: summary.root_span?.name ?? null,
      rootService: summary.root_span?.service_name ?? null,
      rootMissing: summary.root_span_missing,
      durationMs: summary.duration_ms,
      spanCount: summary.span_count,
      errorCount: summary.error_span_count,
      orphanCount: summary.orphan_span_count,
      services: [...summary.services].sort(byCount),
      releases: summary.releases,
      environments: summary.environments,
      issues: summary.issues,
      fromSummary: true,
    };
  }
  const services = new Map<string, ServiceCount>();
  const releases = new Set<string>();
  const environments = new Set<string>();
  let root: TraceSpan | null = null;
  for (const node of tree.nodes) {
    const s = node.span;
    let count = services.get(s.service_name);
    if (!count) {
      count = { service_name: s.service_name, span_count: 0, error_span_count: 0 };
      services.set(s.service_name, count);
    }
    count.span_count++;
    if (node.error) count.error_span_count++;
    releases.add(s.release);
    environments.add(s.environment);
    if (root === null && s.parent_span_id === null) root = s;
  }
  return {
    rootName: root?.name ?? null,
    rootService: root?.service_name ?? null,
    rootMissing: tree.rootCount === 0,
    durationMs: tree.durationMs,
    spanCount: tree.nodes.length,
    errorCount: tree.errors.length,
    orphanCount: tree.orphanCount,
    services: [...services.values()].sort(byCount),
    releases: [...releases].sort(),
    environments: [...environments].sort(),
    issues: [],
    fromSummary: false,
  };
}

function byCount(a: ServiceCount, b: ServiceCount): number {
  return b.span_count - a.span_count || a.service_name.localeCompare(b.service_name);
}
