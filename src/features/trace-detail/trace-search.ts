import { z } from 'zod/mini';
import { lenient, searchText } from '../../lib/search-fields';
import type { TraceScope } from '../../api/queries/traces';
import { parseProjectScope, scopeQuery, type ProjectScopeSearch } from '../../lib/project-scope';
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

/**
 * The read's scope from the URL: `project_id` for one project in the shell's scope,
 * `project_ids` for several (the query reads each of them; the trace routes take one), neither
 * for all (the service reads every project the account can read).
 */
export function traceReadScope(search: TracePageSearch): TraceScope {
  const out: TraceScope = { ...scopeQuery(parseProjectScope(search)) };
  if (search.release !== undefined) out.release = search.release;
  if (search.environment !== undefined) out.environment = search.environment;
  return out;
}

/** A trace id as the service writes it: 32 lowercase hex characters. */
export function isTraceId(value: string): boolean {
  return /^[0-9a-f]{32}$/.test(value);
}
