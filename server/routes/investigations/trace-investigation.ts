import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { CoverageBuilder } from '../../domain/bundle-coverage';
import { BUNDLE_LIMITS as L, newCounter } from '../../domain/investigation-bounds';
import { exactFilter } from '../../domain/read-rules/exact-filter';
import { parseProjectScope } from '../../domain/read-rules/project-scope';
import { parseVersionOne } from '../../domain/read-rules/series-window';
import type { SummaryInputSpan, TraceSummaryBody } from '../../domain/trace-summary';
import { requireAccount } from '../../http/account-auth';
import { ApiError, fail } from '../../core/api-error';
import type { AppEnv } from '../../http/app-env';
import type { Deps } from '../../core/deps';
import { bearerSecurity, errorResponses, jsonContent } from '../../http/openapi-shared';
import { projectsInScope, readableProjectIds } from '../../http/readable-projects';
import { EXACT_FACETS, UUID_FACETS, enumFacets, key } from '../../http/query-keys';
import { readQuery } from '../../http/read-query';
import { strictQuery } from '../../http/strict-query';
import { SPAN_ID, TRACE_ID } from '../../domain/trace-ids';
import { boundedSpan, boundedSummarySpan, subject } from '../../views/investigation-views';
import { iso } from '../../views/telemetry-views';
import {
  BoundedLogSchema,
  BoundedSpanSchema,
  BoundedTraceSchema,
  TraceIssueSchema,
  bundleHead,
  bundleTail,
} from './investigation-schema';
import {
  bundle,
  errorSpansSection,
  subjectSection,
  traceIssuesSection,
  traceLogsSection,
  traceSection,
  tracePath,
} from './investigation-sections';
import { SummarySpanSchema } from '../traces/trace-schema';

/** Logs "around" a span: those of its trace from this long before its start to after its end. */
export const SPAN_LOG_MARGIN_MS = 5_000;

const TraceIdParam = z.string().openapi({
  param: { name: 'trace_id', in: 'path' },
  description: '32 lowercase hex characters.',
});
const SpanIdParam = z.string().openapi({
  param: { name: 'span_id', in: 'path' },
  description: '16 lowercase hex characters.',
});

const TraceQuery = readQuery({ response_version: key('`1` only.', enumFacets(['1'])) }, (q) =>
  parseVersionOne(q.response_version),
);
const SpanQuery = readQuery(
  {
    project_id: key('One project (UUID).', UUID_FACETS),
    release: key('Exact release of the spans read.', EXACT_FACETS),
    environment: key('Exact environment of the spans read.', EXACT_FACETS),
  },
  (q) => ({
    projectScope: parseProjectScope(q),
    release: exactFilter(q, 'release'),
    environment: exactFilter(q, 'environment'),
  }),
);

const TraceInvestigationSchema = z
  .object({
    ...bundleHead,
    trace: BoundedTraceSchema,
    error_spans: z.array(SummarySpanSchema),
    issues: z.array(TraceIssueSchema),
    logs: z.array(BoundedLogSchema),
    ...bundleTail,
  })
  .openapi('TraceInvestigation');

const SpanInvestigationSchema = z
  .object({
    ...bundleHead,
    span: BoundedSpanSchema,
    error: z.object({
      is_error: z.boolean(),
      status_message: z.string().nullable(),
      child_count: z.number().int(),
      child_error_count: z.number().int(),
    }),
    parent_chain: z.array(SummarySpanSchema).openapi({
      description: 'From the parent up to the root (at most `limits.parent_chain`).',
    }),
    parent_missing: z.boolean().openapi({
      description: 'True when the chain stops at a parent id no stored span in scope has.',
    }),
    trace: BoundedTraceSchema,
    logs: z.array(BoundedLogSchema),
    ...bundleTail,
  })
  .openapi('SpanInvestigation');

const traceRoute = createRoute({
  method: 'get',
  path: '/api/telemetry/traces/{trace_id}/investigation',
  tags: ['investigations'],
  summary: 'Bounded evidence bundle of one trace',
  description:
    'The trace summary over every readable project, its error spans, the issues whose occurrences carry exactly this trace id, and the logs carrying it. `404` `trace not found` when no span is readable (unknown and unreadable alike).',
  security: bearerSecurity,
  request: { params: z.object({ trace_id: TraceIdParam }), query: TraceQuery },
  responses: {
    200: jsonContent(TraceInvestigationSchema, 'The bundle.'),
    ...errorResponses(400, 401, 404, 422),
  },
});

const spanRoute = createRoute({
  method: 'get',
  path: '/api/telemetry/traces/{trace_id}/spans/{span_id}/investigation',
  tags: ['investigations'],
  summary: 'Bounded evidence bundle of one span',
  description: `The span (attributes and events bounded), its error status, its parent chain up to the root, the trace summary, and the logs of the trace from ${SPAN_LOG_MARGIN_MS / 1000} s before its start to ${SPAN_LOG_MARGIN_MS / 1000} s after its end. \`project_id\`, \`release\` and \`environment\` narrow the spans read, as on the span list; \`404\` \`span not found\` when none matches.`,
  security: bearerSecurity,
  request: {
    params: z.object({ trace_id: TraceIdParam, span_id: SpanIdParam }),
    query: SpanQuery,
  },
  responses: {
    200: jsonContent(SpanInvestigationSchema, 'The bundle.'),
    ...errorResponses(400, 401, 404, 422),
  },
});

function pathValue(value: string | undefined, name: string, re: RegExp, what: string): string {
  const v = value?.toLowerCase();
  if (v === undefined || !re.test(v))
    throw new ApiError({
      status: 400,
      code: 'invalid_path',
      error: `path value ${name} is not ${what}`,
      next: `Put the ${name} in the path exactly as a span carries it.`,
      nextAction: { code: 'fix_request', target: 'request' },
    });
  return v;
}

/** Subject fields of a trace: a project, environment or release only when it is the only one. */
function traceSubject(s: TraceSummaryBody, cut: ReturnType<typeof newCounter>) {
  const only = (values: string[]) => (values.length === 1 ? (values[0] ?? null) : null);
  return subject(
    'trace',
    {
      id: s.trace_id,
      project_id: only(s.project_ids),
      name: s.root_span?.name ?? null,
      status: s.error_span_count > 0 ? 'error' : 'ok',
      occurred_at: s.started_at,
      service_name: s.root_span?.service_name ?? null,
      environment: only(s.environments),
      release: only(s.releases),
    },
    cut,
  );
}

/** From the span's parent up, stopping at the limit, a missing parent or a cycle. */
function parentChain(spans: readonly SummaryInputSpan[], parentId: string | null) {
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  const chain: SummaryInputSpan[] = [];
  const seen = new Set<string>();
  let at = parentId;
  while (at !== null && !seen.has(at)) {
    const parent = byId.get(at);
    if (!parent) return { chain, missing: true, more: false };
    if (chain.length === L.parent_chain) return { chain, missing: false, more: true };
    seen.add(at);
    chain.push(parent);
    at = parent.parentSpanId;
  }
  return { chain, missing: false, more: false };
}

export function registerTraceInvestigationRoutes(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  const auth = requireAccount(deps, { session: false });

  app.openapi(
    { ...traceRoute, middleware: [auth, strictQuery(TraceQuery)] as const },
    async (c) => {
      const traceId = pathValue(c.req.param('trace_id'), 'trace_id', TRACE_ID, 'a trace id');
      const readable = [...(await readableProjectIds(deps, c.get('principal').accountId))];
      const scope = { traceId, projectIds: readable, release: null, environment: null };
      const cov = new CoverageBuilder();
      const subjectCut = newCounter();
      const { summary, trace } = await traceSection(deps, scope, cov);
      if (summary === null || trace === null) throw fail.notFound('trace not found');
      const subj = traceSubject(summary, subjectCut);
      subjectSection(cov, subjectCut);
      const errorSpans = errorSpansSection(summary, cov);
      const issues = await traceIssuesSection(deps, scope, cov);
      const logs = await traceLogsSection(deps, readable, traceId, cov);
      const hints = issues.slice(0, 1).map((i) => ({
        code: 'investigate_issue',
        target: 'issue_investigation',
        path: `/api/telemetry/issues/${i.issue_id}/investigation?occurrence_id=${i.occurrence_id}`,
      }));
      return c.json(
        bundle(subj, { trace, error_spans: errorSpans, issues, logs }, cov, hints),
        200,
      );
    },
  );

  const spanPaths = (c: { req: { param(name: string): string | undefined } }) => ({
    traceId: pathValue(c.req.param('trace_id'), 'trace_id', TRACE_ID, 'a trace id'),
    spanId: pathValue(c.req.param('span_id'), 'span_id', SPAN_ID, 'a span id'),
  });
  // The path's ids are read before the query's values, as they always were.
  const spanPathCheck: MiddlewareHandler<AppEnv> = async (c, next) => {
    spanPaths(c);
    await next();
  };

  app.openapi(
    { ...spanRoute, middleware: [auth, strictQuery(SpanQuery), spanPathCheck] as const },
    async (c) => {
      const { traceId, spanId } = spanPaths(c);
      const { projectScope, release, environment } = c.req.valid('query');
      const projectIds = await projectsInScope(deps, c.get('principal').accountId, projectScope);
      const scope = { traceId, projectIds, release, environment };
      const span = await deps.store.investigations.span(scope, spanId);
      if (span === null) throw fail.notFound('span not found');

      const cov = new CoverageBuilder();
      const subjectCut = newCounter();
      const subj = subject(
        'span',
        {
          id: span.spanId,
          project_id: span.projectId,
          name: span.name,
          status: span.status === 'error' ? 'error' : 'ok',
          occurred_at: iso(span.startedAt),
          service_name: span.service_name,
          environment: span.environment,
          release: span.release,
        },
        subjectCut,
      );
      subjectSection(cov, subjectCut);
      const spanCut = newCounter();
      const spanView = boundedSpan(span, spanCut);
      cov.add('span', 1, { cut: spanCut, more: Math.max(0, span.events.length - L.span_events) });

      const spans = await deps.store.traces.summarySpans(scope);
      const children = spans.filter((s) => s.parentSpanId === span.spanId);
      const chainCut = newCounter();
      const chain = parentChain(spans, span.parentSpanId);
      const parentChainView = chain.chain.map((s) =>
        boundedSummarySpan(
          {
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
          },
          chainCut,
        ),
      );
      cov.add('parent_chain', parentChainView.length, {
        limit: L.parent_chain,
        more: chain.more,
        cut: chainCut,
      });
      if (chain.missing)
        cov.unavailable('parent_span', 'the parent span is not stored in the scope read');

      const { trace } = await traceSection(deps, scope, cov, spans);
      const logs = await traceLogsSection(deps, projectIds, traceId, cov, {
        window: {
          since: span.startedAt - SPAN_LOG_MARGIN_MS,
          until: Math.ceil(span.startedAt + span.durationMs) + SPAN_LOG_MARGIN_MS,
        },
      });
      if (trace === null) throw fail.notFound('span not found');
      return c.json(
        bundle(
          subj,
          {
            span: spanView,
            error: {
              is_error: span.status === 'error',
              status_message: spanView.status_message,
              child_count: children.length,
              child_error_count: children.filter((s) => s.status === 'error').length,
            },
            parent_chain: parentChainView,
            parent_missing: chain.missing,
            trace,
            logs,
          },
          cov,
          [{ code: 'inspect_trace', target: 'trace_investigation', path: tracePath(traceId) }],
        ),
        200,
      );
    },
  );
}
