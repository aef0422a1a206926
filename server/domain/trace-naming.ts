/**
 * Naming quality of spans (spec "Trace discovery row", `naming_quality`). A trace counts in a
 * category when at least one of its spans does; the rules look at one span at a time, so
 * ingestion counts them as spans arrive. Documented in the route description and the README.
 */

const HTTP_METHODS = [
  'get',
  'post',
  'put',
  'patch',
  'delete',
  'head',
  'options',
  'connect',
  'trace',
];

/** Names that say nothing about the work (compared trimmed and lowercased). */
export const GENERIC_SPAN_NAMES: readonly string[] = [
  'span',
  'handler',
  'request',
  'http request',
  'http',
  'unknown',
  '<unknown>',
  'operation',
  'anonymous',
  '<anonymous>',
  'default',
  'function',
  'middleware',
  'main',
  'root',
  'noop',
];

/** Operations that name no kind of work (compared trimmed and lowercased). */
export const GENERIC_OPERATIONS: readonly string[] = [
  'default',
  'unknown',
  '<unknown>',
  'span',
  'operation',
  'custom',
  'function',
  'handler',
  'none',
  'null',
  'undefined',
];

const genericNames = new Set([
  ...GENERIC_SPAN_NAMES,
  ...HTTP_METHODS,
  ...HTTP_METHODS.map((m) => `http ${m}`),
]);
const genericOperations = new Set(GENERIC_OPERATIONS);
const methodAndPath = new RegExp(`^(?:${HTTP_METHODS.join('|')})\\s+(/\\S*)$`, 'i');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A path segment that is a value rather than a route part: a number, a UUID, a long hex id, or a segment with 6+ digits. */
export function isIdSegment(segment: string): boolean {
  return (
    /^\d+$/.test(segment) ||
    UUID.test(segment) ||
    /^[0-9a-f]{16,}$/i.test(segment) ||
    (segment.match(/\d/g)?.length ?? 0) >= 6
  );
}

export type SpanNamingInput = {
  name: string;
  operation: string | null;
  kind: string | null;
  attributes: Record<string, unknown>;
};

export type SpanNaming = {
  /** The name is a bare HTTP method or a placeholder word (`GET`, `handler`, `span`). */
  genericName: boolean;
  /**
   * An HTTP server span whose route template is unknown: it carries an HTTP method attribute
   * but no `http.route`, or its name is a method and a raw path with an id in it.
   */
  unmatchedRoute: boolean;
  /** The operation is a placeholder word (`default`, `unknown`, `span`). */
  genericOperation: boolean;
};

const isServer = (s: SpanNamingInput) =>
  s.kind === 'server' || (s.operation ?? '').trim().toLowerCase().startsWith('http.server');
const hasMethod = (a: Record<string, unknown>) =>
  typeof a['http.method'] === 'string' || typeof a['http.request.method'] === 'string';

export function spanNaming(span: SpanNamingInput): SpanNaming {
  const name = span.name.trim().toLowerCase();
  const path = methodAndPath.exec(span.name.trim())?.[1];
  const rawPath =
    path !== undefined &&
    path
      .split(/[?#]/)[0]!
      .split('/')
      .some((segment) => segment !== '' && isIdSegment(segment));
  const operation = span.operation?.trim().toLowerCase() ?? null;
  return {
    genericName: name === '' || genericNames.has(name),
    unmatchedRoute:
      rawPath ||
      (isServer(span) &&
        hasMethod(span.attributes) &&
        typeof span.attributes['http.route'] !== 'string'),
    genericOperation: operation !== null && genericOperations.has(operation),
  };
}

/** Per-trace counts of spans in each category, as discovery rows carry them. */
export type TraceNamingCounts = {
  genericNameSpans: number;
  unmatchedRouteSpans: number;
  genericOperationSpans: number;
};

export type NamingQuality = {
  evaluated_traces: number;
  meaningful_name_traces: number;
  generic_name_traces: number;
  unmatched_route_traces: number;
  generic_operation_traces: number;
  truncated: boolean;
  next_action: { code: 'improve_trace_naming'; target: 'sdk_configuration' } | null;
};

/**
 * The page's naming quality: each returned trace is evaluated once; a trace has a meaningful
 * name when none of its spans has a generic name or an unmatched route.
 */
export function namingQuality(
  page: readonly TraceNamingCounts[],
  truncated: boolean,
): NamingQuality {
  const generic = page.filter((t) => t.genericNameSpans > 0).length;
  const unmatched = page.filter((t) => t.unmatchedRouteSpans > 0).length;
  const operations = page.filter((t) => t.genericOperationSpans > 0).length;
  const meaningful = page.filter(
    (t) => t.genericNameSpans === 0 && t.unmatchedRouteSpans === 0,
  ).length;
  return {
    evaluated_traces: page.length,
    meaningful_name_traces: meaningful,
    generic_name_traces: generic,
    unmatched_route_traces: unmatched,
    generic_operation_traces: operations,
    truncated,
    next_action:
      generic + unmatched + operations > 0
        ? { code: 'improve_trace_naming', target: 'sdk_configuration' }
        : null,
  };
}
