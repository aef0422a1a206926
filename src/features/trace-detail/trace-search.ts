import { z } from 'zod/mini';
import { lenient, searchText } from '../../lib/search-fields';
import { parseProjectScope, type ProjectScopeSearch } from '../../lib/project-scope';
import type { TimeRangeSearch } from '../../lib/time-range';

/**
 * The trace page's own search (beside the layout's scope and range): the span filter, the
 * selected span (`span`, a span id, so a link opens that span), the release and environment
 * that narrow the read, and the slowest-path highlight. Invalid values fall back to defaults.
 */
export const traceSearchSchema = z.object({
  q: searchText(256),
  service: searchText(256),
  span: lenient(z.string().check(z.regex(/^[0-9a-f]{16}$/))),
  release: searchText(200),
  environment: searchText(200),
  slowest: lenient(z.boolean()),
});

export type TraceSearch = z.infer<typeof traceSearchSchema>;
export type TracePageSearch = TraceSearch & ProjectScopeSearch & TimeRangeSearch;

/** What the trace routes take: `project_id` (one project in scope), `release`, `environment`. */
export type TraceReadScope = { project_id?: string; release?: string; environment?: string };

/**
 * The read's scope from the URL. The trace routes take one `project_id`: with one project in
 * the shell's scope it is sent; with several or all, the service reads every project the
 * account can read (a trace id names one trace whichever project holds its spans).
 */
export function traceReadScope(search: TracePageSearch): TraceReadScope {
  const scope = parseProjectScope(search);
  const out: TraceReadScope = {};
  if (scope.kind === 'projects' && scope.ids.length === 1 && scope.ids[0] !== undefined) {
    out.project_id = scope.ids[0];
  }
  if (search.release !== undefined) out.release = search.release;
  if (search.environment !== undefined) out.environment = search.environment;
  return out;
}

/** A trace id as the service writes it: 32 lowercase hex characters. */
export function isTraceId(value: string): boolean {
  return /^[0-9a-f]{32}$/.test(value);
}
