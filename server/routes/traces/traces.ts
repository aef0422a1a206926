import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { DEFAULT_LIMIT, MAX_LIMIT, parseLimit } from '../../domain/read-rules/limit';
import { parseListMode, type CursorFamily } from '../../domain/read-rules/list-mode';
import { parseProjectScope } from '../../domain/read-rules/project-scope';
import { invalid } from '../../domain/read-rules/read-rule-error';
import { parseTimeRange } from '../../domain/read-rules/time-range';
import { namingQuality } from '../../domain/trace-naming';
import { roundMicros, summarizeTrace } from '../../domain/trace-summary';
import { requireAccount } from '../../http/account-auth';
import { ApiError, fail } from '../../core/api-error';
import type { AppEnv } from '../../http/app-env';
import type { Deps } from '../../core/deps';
import { bearerSecurity, errorResponses, jsonContent } from '../../http/openapi-shared';
import { projectsInScope } from '../../http/readable-projects';
import { strictQuery } from '../../http/strict-query';
import type { TraceDiscoveryRow, TraceScope } from '../../core/store/telemetry/traces';
import { iso, spanView } from '../../views/telemetry-views';
import {
  TracePageSchema,
  TraceRowSchema,
  TraceSpanSchema,
  TraceSummarySchema,
} from './trace-schema';

const TRACE_ID = /^[0-9a-f]{32}$/;
const text = (description: string) => z.string().optional().openapi({ description });

/** Trace discovery's cursor family: `cursor_time` + `cursor_trace_id` (never `cursor_id`). */
const TRACE_CURSOR: CursorFamily<'cursor_trace_id'> = {
  fields: ['cursor_trace_id'],
  check: (_field, value) =>
    TRACE_ID.test(value) ? null : 'cursor_trace_id must be 32 lowercase hex characters',
};

const TraceListQuery = z
  .object({
    project_id: text('One project (UUID). An unreadable project gives `[]`.'),
    project_ids: text(
      '2 to 50 distinct project UUIDs, comma-separated. Any unreadable id gives `404`.',
    ),
    service_name: text('Exact service name of at least one span of the trace.'),
    release: text('Exact release of at least one span of the trace.'),
    environment: text('Exact environment of at least one span of the trace.'),
    status: z
      .enum(['error', 'ok'])
      .optional()
      .openapi({ description: '`error`: at least one error span; `ok`: none. Omit for both.' }),
    since: text('`<n>h`, `<n>d` or RFC3339; inclusive; compared with the trace start.'),
    min_duration_ms: text('Integer of at least 0; traces at least this long.'),
    pagination: z.enum(['cursor']).optional().openapi({
      description: 'Send `cursor` for a `{traces, next_cursor, naming_quality}` page.',
    }),
    cursor_time: text('`next_cursor.time` of the previous page.'),
    cursor_trace_id: text('`next_cursor.trace_id` of the previous page.'),
    limit: text(
      `Traces per page: default ${DEFAULT_LIMIT}, maximum ${MAX_LIMIT} (a larger value is replaced by it).`,
    ),
  })
  .strict();
const TRACE_LIST_KEYS = Object.keys(TraceListQuery.shape);

const TraceDetailQuery = z
  .object({
    project_id: text('One project (UUID).'),
    release: text('Exact release of the spans.'),
    environment: text('Exact environment of the spans.'),
  })
  .strict();
const TRACE_DETAIL_KEYS = Object.keys(TraceDetailQuery.shape);

const TraceIdParam = z.string().openapi({
  param: { name: 'trace_id', in: 'path' },
  description: '32 lowercase hex characters (percent-encoded as a path segment).',
  example: '4bf92f3577b34da6a3ce929d0e0e4736',
});

const listTraces = createRoute({
  method: 'get',
  path: '/api/telemetry/traces',
  tags: ['telemetry'],
  summary: 'Trace discovery, newest first',
  description:
    'A bare array by default; with `pagination=cursor`, `{traces, next_cursor, naming_quality}` where `naming_quality` covers the returned page only. ' +
    'Filters select traces with at least one matching span in scope; a row describes the trace’s spans in the projects of the request.',
  security: bearerSecurity,
  request: { query: TraceListQuery },
  responses: {
    200: jsonContent(z.union([z.array(TraceRowSchema), TracePageSchema]), 'Matching traces.'),
    ...errorResponses(401, 404, 422),
  },
});

const getTraceSpans = createRoute({
  method: 'get',
  path: '/api/telemetry/traces/{trace_id}',
  tags: ['telemetry'],
  summary: 'Spans of one trace, by start time',
  description:
    '`[]` when no span matches the id and scope (an unknown and an unreadable trace look the same). Every span, no cursor.',
  security: bearerSecurity,
  request: { params: z.object({ trace_id: TraceIdParam }), query: TraceDetailQuery },
  responses: {
    200: jsonContent(z.array(TraceSpanSchema), 'The spans.'),
    ...errorResponses(400, 401, 422),
  },
});

const getTraceSummary = createRoute({
  method: 'get',
  path: '/api/telemetry/traces/{trace_id}/summary',
  tags: ['telemetry'],
  summary: 'Summary of one trace',
  description:
    '`404` `trace not found` when no span matches the id and scope; filters are never dropped to find one.',
  security: bearerSecurity,
  request: { params: z.object({ trace_id: TraceIdParam }), query: TraceDetailQuery },
  responses: {
    200: jsonContent(TraceSummarySchema, 'The summary.'),
    ...errorResponses(400, 401, 404, 422),
  },
});

/** An exact-match filter: absent, or a non-blank value. */
function exactFilter(q: Record<string, string | undefined>, key: string): string | null {
  const value = q[key];
  if (value === undefined) return null;
  if (value.trim() === '') throw invalid(`${key} must not be blank`);
  return value;
}

function parseMinDuration(value: string | undefined): number | null {
  if (value === undefined) return null;
  if (!/^\d{1,12}$/.test(value)) throw invalid('min_duration_ms must be an integer of at least 0');
  return Number(value);
}

function readTraceId(value: string | undefined): string {
  const id = value?.toLowerCase();
  if (id === undefined || !TRACE_ID.test(id))
    throw new ApiError({
      status: 400,
      code: 'invalid_path',
      error: 'path value trace_id is not a trace id',
      next: 'Put the 32-character hex trace_id in the path, exactly as a span or log carries it.',
      nextAction: { code: 'fix_request', target: 'request' },
    });
  return id;
}

function rowView(t: TraceDiscoveryRow) {
  return {
    trace_id: t.traceId,
    project_ids: t.projectIds,
    root_span_name: t.root.name,
    root_service_name: t.root.serviceName,
    root_operation: t.root.operation,
    span_count: t.spanCount,
    error_span_count: t.errorSpanCount,
    service_count: t.services.length,
    started_at: iso(t.startedAt),
    duration_ms: roundMicros(t.endedAt - t.startedAt),
    services: t.services,
    releases: t.releases,
    environments: t.environments,
    next_action: { code: 'inspect_trace', target: 'trace_summary' },
  };
}

export function registerTraceRoutes(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  const auth = requireAccount(deps, { session: false });

  app.openapi(
    { ...listTraces, middleware: [auth, strictQuery(TRACE_LIST_KEYS)] as const },
    async (c) => {
      const q = c.get('strictQuery');
      const scope = parseProjectScope(q);
      const serviceName = exactFilter(q, 'service_name');
      const release = exactFilter(q, 'release');
      const environment = exactFilter(q, 'environment');
      // The route's schema has already refused any other `status` value.
      const status = q.status === 'error' || q.status === 'ok' ? q.status : null;
      const range = parseTimeRange(q, deps.now());
      const minDurationMs = parseMinDuration(q.min_duration_ms);
      const mode = parseListMode(q, TRACE_CURSOR);
      const limit = parseLimit(q.limit);

      const projectIds = await projectsInScope(deps, c.get('principal').accountId, scope);
      const after =
        mode.mode === 'cursor' && mode.after
          ? { time: mode.after.time, traceId: mode.after.cursor_trace_id }
          : null;
      const rows = await deps.store.traces.discover({
        projectIds,
        serviceName,
        release,
        environment,
        status,
        since: range.since,
        minDurationMs,
        after,
        limit: mode.mode === 'cursor' ? limit + 1 : limit,
      });
      const page = rows.slice(0, limit);
      if (mode.mode === 'array') return c.json(page.map(rowView), 200);
      const last = page[page.length - 1];
      const more = rows.length > limit;
      return c.json(
        {
          traces: page.map(rowView),
          next_cursor: more && last ? { time: iso(last.startedAt), trace_id: last.traceId } : null,
          naming_quality: namingQuality(page, more),
        },
        200,
      );
    },
  );

  /** The spans a detail read covers; an unreadable `project_id` covers none. */
  async function traceScope(c: {
    req: { param(name: string): string | undefined };
    get(key: 'strictQuery'): Record<string, string>;
    get(key: 'principal'): { accountId: string };
  }): Promise<TraceScope> {
    const traceId = readTraceId(c.req.param('trace_id'));
    const q = c.get('strictQuery');
    const scope = parseProjectScope(q);
    const release = exactFilter(q, 'release');
    const environment = exactFilter(q, 'environment');
    const projectIds = await projectsInScope(deps, c.get('principal').accountId, scope);
    return { traceId, projectIds, release, environment };
  }

  app.openapi(
    { ...getTraceSummary, middleware: [auth, strictQuery(TRACE_DETAIL_KEYS)] as const },
    async (c) => {
      const scope = await traceScope(c);
      const summary = summarizeTrace(scope.traceId, await deps.store.traces.summarySpans(scope));
      if (summary === null) throw fail.notFound('trace not found');
      const issues = await deps.store.traces.issues(scope);
      return c.json(
        {
          ...summary,
          issues: issues.map((i) => ({
            issue_id: i.issueId,
            project_id: i.projectId,
            title: i.title,
            occurrence_id: i.occurrenceId,
            span_id: i.spanId,
            occurred_at: iso(i.occurredAt),
          })),
        },
        200,
      );
    },
  );

  app.openapi(
    { ...getTraceSpans, middleware: [auth, strictQuery(TRACE_DETAIL_KEYS)] as const },
    async (c) => {
      const scope = await traceScope(c);
      const spans = await deps.store.traces.spans(scope);
      return c.json(spans.map(spanView), 200);
    },
  );
}
