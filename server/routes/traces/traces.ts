import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { DEFAULT_LIMIT, MAX_LIMIT, parseLimit } from '../../domain/read-rules/limit';
import { parseListMode, type CursorFamily } from '../../domain/read-rules/list-mode';
import { parseProjectScope } from '../../domain/read-rules/project-scope';
import { exactFilter } from '../../domain/read-rules/exact-filter';
import { invalid } from '../../domain/read-rules/read-rule-error';
import { parseTimeRange } from '../../domain/read-rules/time-range';
import { namingQuality } from '../../domain/trace-naming';
import { roundMicros } from '../../domain/trace-summary';
import { requireAccount } from '../../http/account-auth';
import { ApiError, fail } from '../../core/api-error';
import type { AppEnv } from '../../http/app-env';
import type { Deps } from '../../core/deps';
import { bearerSecurity, errorResponses, jsonContent } from '../../http/openapi-shared';
import { projectsInScope } from '../../http/readable-projects';
import {
  EXACT_FACETS,
  PROJECT_IDS_FACETS,
  SINCE_FACETS,
  TIMESTAMP_FACETS,
  TRACE_ID_FACETS,
  UUID_FACETS,
  integerFacets,
  key,
} from '../../http/query-keys';
import { readQuery } from '../../http/read-query';
import { strictQuery } from '../../http/strict-query';
import { TRACE_ID } from '../../domain/trace-ids';
import type { TraceDiscoveryRow, TraceScope } from '../../core/store/telemetry/traces';
import { streamJson } from '../../http/stream-json';
import { iso } from '../../views/telemetry-views';
import {
  TracePageSchema,
  TraceRowSchema,
  TraceSpanSchema,
  TraceSummarySchema,
} from './trace-schema';

/** Trace discovery's cursor family: `cursor_time` + `cursor_trace_id` (never `cursor_id`). */
const TRACE_CURSOR: CursorFamily<'cursor_trace_id'> = {
  fields: ['cursor_trace_id'],
  check: (_field, value) =>
    TRACE_ID.test(value) ? null : 'cursor_trace_id must be 32 lowercase hex characters',
};

/** Largest `min_duration_ms` the rule reads (12 digits). */
const MIN_DURATION_MAX = 999_999_999_999;

const traceListQuery = (now: () => number) =>
  readQuery(
    {
      project_id: key('One project (UUID). An unreadable project gives `[]`.', UUID_FACETS),
      project_ids: key(
        '2 to 50 distinct project UUIDs, comma-separated. Any unreadable id gives `404`.',
        PROJECT_IDS_FACETS,
      ),
      service_name: key('Exact service name of at least one span of the trace.', EXACT_FACETS),
      release: key('Exact release of at least one span of the trace.', EXACT_FACETS),
      environment: key('Exact environment of at least one span of the trace.', EXACT_FACETS),
      status: z
        .enum(['error', 'ok'])
        .optional()
        .openapi({ description: '`error`: at least one error span; `ok`: none. Omit for both.' }),
      since: key(
        '`<n>h`, `<n>d` or RFC3339; inclusive; compared with the trace start.',
        SINCE_FACETS,
      ),
      min_duration_ms: key(
        'Integer of at least 0; traces at least this long.',
        integerFacets({ minimum: 0, maximum: MIN_DURATION_MAX, digits: 12 }),
      ),
      pagination: z.enum(['cursor']).optional().openapi({
        description: 'Send `cursor` for a `{traces, next_cursor, naming_quality}` page.',
      }),
      cursor_time: key('`next_cursor.time` of the previous page.', TIMESTAMP_FACETS),
      cursor_trace_id: key('`next_cursor.trace_id` of the previous page.', TRACE_ID_FACETS),
      limit: key(
        `Traces per page: default ${DEFAULT_LIMIT}, maximum ${MAX_LIMIT} (a larger value is replaced by it).`,
        integerFacets({ minimum: 1, default: DEFAULT_LIMIT }),
      ),
    },
    (q) => {
      // Every value is checked before access is, so a bad request is a 422 whatever it reads.
      const scope = parseProjectScope(q);
      const serviceName = exactFilter(q, 'service_name');
      const release = exactFilter(q, 'release');
      const environment = exactFilter(q, 'environment');
      const range = parseTimeRange(q, now());
      const minDurationMs = parseMinDuration(q.min_duration_ms);
      const mode = parseListMode(q, TRACE_CURSOR);
      const limit = parseLimit(q.limit);
      const after =
        mode.mode === 'cursor' && mode.after
          ? { time: mode.after.time, traceId: mode.after.cursor_trace_id }
          : null;
      return {
        scope,
        serviceName,
        release,
        environment,
        status: q.status ?? null,
        since: range.since,
        minDurationMs,
        mode,
        after,
        limit,
      };
    },
  );

const TraceDetailQuery = readQuery(
  {
    project_id: key('One project (UUID).', UUID_FACETS),
    release: key('Exact release of the spans.', EXACT_FACETS),
    environment: key('Exact environment of the spans.', EXACT_FACETS),
  },
  (q) => ({
    scope: parseProjectScope(q),
    release: exactFilter(q, 'release'),
    environment: exactFilter(q, 'environment'),
  }),
);

const TraceIdParam = z.string().openapi({
  param: { name: 'trace_id', in: 'path' },
  description: '32 lowercase hex characters (percent-encoded as a path segment).',
  example: '4bf92f3577b34da6a3ce929d0e0e4736',
});

const listTraces = (now: () => number) =>
  createRoute({
    method: 'get',
    path: '/api/telemetry/traces',
    tags: ['telemetry'],
    summary: 'Trace discovery, newest first',
    description:
      'A bare array by default; with `pagination=cursor`, `{traces, next_cursor, naming_quality}` where `naming_quality` covers the returned page only. ' +
      'Filters select traces with at least one matching span in scope; a row describes the trace’s spans in the projects of the request.',
    security: bearerSecurity,
    request: { query: traceListQuery(now) },
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

type TraceDetail = z.output<typeof TraceDetailQuery>;

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

  const list = listTraces(deps.now);
  app.openapi(
    { ...list, middleware: [auth, strictQuery(list.request.query)] as const },
    async (c) => {
      const { scope, mode, limit, ...filters } = c.req.valid('query');
      const projectIds = await projectsInScope(deps, c.get('principal').accountId, scope);
      const rows = await deps.store.traces.discover({
        projectIds,
        ...filters,
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
    req: { param(name: string): string | undefined; valid(target: 'query'): TraceDetail };
    get(key: 'principal'): { accountId: string };
  }): Promise<TraceScope> {
    const traceId = readTraceId(c.req.param('trace_id'));
    const { scope, release, environment } = c.req.valid('query');
    const projectIds = await projectsInScope(deps, c.get('principal').accountId, scope);
    return { traceId, projectIds, release, environment };
  }

  // The path's trace id is read before the query's values, as it always was.
  const tracePath: MiddlewareHandler<AppEnv> = async (c, next) => {
    readTraceId(c.req.param('trace_id'));
    await next();
  };

  app.openapi(
    { ...getTraceSummary, middleware: [auth, strictQuery(TraceDetailQuery), tracePath] as const },
    async (c) => {
      const scope = await traceScope(c);
      const summary = await deps.store.traces.summary(scope);
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
    { ...getTraceSpans, middleware: [auth, strictQuery(TraceDetailQuery), tracePath] as const },
    async (c) => {
      const scope = await traceScope(c);
      // A trace of 100,000 spans is 60 MB of JSON: it is sent a page at a time.
      return streamJson<z.output<typeof TraceSpanSchema>[]>(deps.store.traces.spanListJson(scope));
    },
  );
}
