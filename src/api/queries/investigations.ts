import { queryOptions } from '@tanstack/react-query';
import { api, call } from '../client';
import type { components, paths } from '../schema.gen';
import { resolveReadRange } from './logs';
import type { SeriesParams } from './metrics';

type S = components['schemas'];
export type IssueInvestigation = S['IssueInvestigation'];
export type TraceInvestigation = S['TraceInvestigation'];
export type SpanInvestigation = S['SpanInvestigation'];
export type LogInvestigation = S['LogInvestigation'];
export type MetricInvestigation = S['MetricInvestigation'];
export type ReleaseInvestigation = S['ReleaseInvestigation'];
export type CorrectionVerification = S['CorrectionVerification'];
export type InvestigationCoverage = S['InvestigationCoverage'];
export type InvestigationSubject = S['InvestigationSubject'];
export type InvestigationHint = S['InvestigationHint'];
export type InvestigationLog = S['InvestigationLog'];
export type InvestigationTrace = S['InvestigationTrace'];
export type InvestigationTraceIssue = S['InvestigationTraceIssue'];
export type TraceSummarySpan = S['TraceSummarySpan'];

/** Every bundle the panel can show: each starts with `subject` and ends with `coverage`. */
export type InvestigationBundle =
  | IssueInvestigation
  | TraceInvestigation
  | SpanInvestigation
  | LogInvestigation
  | MetricInvestigation
  | ReleaseInvestigation
  | CorrectionVerification;

/** Which occurrence an issue bundle is about: a rule of the service, or one occurrence. */
export type IssueSelector =
  { selection: 'recommended' | 'latest' | 'first' } | { occurrence_id: string };

export type SpanScope = { project_id?: string; release?: string; environment?: string };

export type MetricInvestigationParams = NonNullable<
  paths['/api/telemetry/metrics/investigation']['get']['parameters']['query']
>;
export type ReleaseInvestigationParams = NonNullable<
  paths['/api/telemetry/releases/investigation']['get']['parameters']['query']
>;

/**
 * The MCP tool call (Lookout's MCP server at /mcp) that reads the same bundle, carried in the
 * query's `meta` so the panel can tell how a connected assistant fetches what it shows.
 */
export type AssistantCall = { tool: string; args: Record<string, string | number> };

function forAssistant(tool: string, args: Record<string, string | number | undefined>) {
  const defined = Object.fromEntries(
    Object.entries(args).filter((e): e is [string, string | number] => e[1] !== undefined),
  );
  return { meta: { assistantCall: { tool, args: defined } satisfies AssistantCall } };
}

/**
 * Bundles are evidence at one moment: read once when the panel opens, not refetched on focus
 * (a changing bundle under the reader's eyes would be worse than a slightly old one).
 */
const settled = { staleTime: 60_000, refetchOnWindowFocus: false } as const;

export const investigationQueries = {
  all: () => ['investigations'] as const,
  issue: (issueId: string, selector: IssueSelector) =>
    queryOptions({
      queryKey: [...investigationQueries.all(), 'issue', issueId, selector] as const,
      queryFn: () =>
        call(
          api.GET('/api/telemetry/issues/{issue_id}/investigation', {
            params: { path: { issue_id: issueId }, query: { response_version: '2', ...selector } },
          }),
        ),
      ...forAssistant('get_issue', { issue_id: issueId, ...selector }),
      ...settled,
    }),
  trace: (traceId: string) =>
    queryOptions({
      queryKey: [...investigationQueries.all(), 'trace', traceId] as const,
      queryFn: () =>
        call(
          api.GET('/api/telemetry/traces/{trace_id}/investigation', {
            params: { path: { trace_id: traceId } },
          }),
        ),
      ...forAssistant('get_trace', { trace_id: traceId }),
      ...settled,
    }),
  span: (traceId: string, spanId: string, scope: SpanScope) =>
    queryOptions({
      queryKey: [...investigationQueries.all(), 'span', traceId, spanId, scope] as const,
      queryFn: () =>
        call(
          api.GET('/api/telemetry/traces/{trace_id}/spans/{span_id}/investigation', {
            params: { path: { trace_id: traceId, span_id: spanId }, query: scope },
          }),
        ),
      ...forAssistant('get_span', { trace_id: traceId, span_id: spanId, ...scope }),
      ...settled,
    }),
  log: (logId: string) =>
    queryOptions({
      queryKey: [...investigationQueries.all(), 'log', logId] as const,
      queryFn: () =>
        call(api.GET('/api/logs/{log_id}/investigation', { params: { path: { log_id: logId } } })),
      ...forAssistant('get_log', { log_id: logId }),
      ...settled,
    }),
  /** The explorer's series read as a bundle: same keys, the range resolved when it is read. */
  metric: (params: SeriesParams) =>
    queryOptions({
      queryKey: [...investigationQueries.all(), 'metric', params] as const,
      queryFn: () => {
        const query: MetricInvestigationParams = {
          project_id: params.project_id,
          name: params.name,
          ...resolveReadRange(params.since, params.until, Date.now()),
          interval: params.interval,
          group_by: params.group_by,
          series_limit: String(params.series_limit),
        };
        return call(api.GET('/api/telemetry/metrics/investigation', { params: { query } }));
      },
      ...forAssistant('get_metric', {
        project_id: params.project_id,
        name: params.name,
        since: params.since,
        until: params.until,
        interval: params.interval,
        group_by: params.group_by,
        series_limit: params.series_limit,
      }),
      ...settled,
    }),
  release: (params: ReleaseInvestigationParams) =>
    queryOptions({
      queryKey: [...investigationQueries.all(), 'release', params] as const,
      queryFn: () =>
        call(api.GET('/api/telemetry/releases/investigation', { params: { query: params } })),
      ...forAssistant('release_health', params),
      ...settled,
    }),
  /** Whether an issue came back after a deployment, counted from a baseline occurrence. */
  correction: (issueId: string, baselineOccurrenceId: string, deploymentId: string) =>
    queryOptions({
      queryKey: [
        ...investigationQueries.all(),
        'correction',
        issueId,
        baselineOccurrenceId,
        deploymentId,
      ] as const,
      queryFn: () =>
        call(
          api.GET('/api/telemetry/issues/{issue_id}/correction-verification', {
            params: {
              path: { issue_id: issueId },
              query: {
                baseline_occurrence_id: baselineOccurrenceId,
                candidate_deployment_id: deploymentId,
              },
            },
          }),
        ),
      ...forAssistant('verify_fix', {
        issue_id: issueId,
        baseline_occurrence_id: baselineOccurrenceId,
        candidate_deployment_id: deploymentId,
      }),
      ...settled,
    }),
};
