import type { CoverageBuilder } from '../../domain/bundle-coverage';
import {
  BUNDLE_LIMITS as L,
  clip,
  newCounter,
  type CutCounter,
} from '../../domain/investigation-bounds';
import {
  summarizeTrace,
  type SummaryInputSpan,
  type TraceSummaryBody,
} from '../../domain/trace-summary';
import type { Deps } from '../../core/deps';
import type { DeploymentMatch } from '../../core/store/state/deployments';
import type { TraceScope } from '../../core/store/telemetry/traces';
import {
  boundedLog,
  boundedSummarySpan,
  boundedTraceSummary,
  summaryOmitted,
  type Subject,
} from '../../views/investigation-views';
import { iso } from '../../views/telemetry-views';
import { deploymentView } from '../deployments/deployments';

/**
 * The evidence sections several bundles share, each read with its limit and recorded in the
 * bundle's coverage. Bundles differ in which sections they hold, never in how one is built.
 */

export type Hint = { code: string; target: string; path: string };

/** The bundle envelope: schema version and subject first, coverage, limits and hints last. */
export function bundle<T extends Record<string, unknown>>(
  subject: Subject,
  sections: T,
  cov: CoverageBuilder,
  nextActions: Hint[],
) {
  return {
    schema_version: 1 as const,
    subject,
    ...sections,
    coverage: cov.build(),
    limits: L,
    next_actions: nextActions,
  };
}

/** The subject's own cut strings are reported as the `subject` section. */
export function subjectSection(cov: CoverageBuilder, cut: CutCounter): void {
  cov.add('subject', 1, { cut });
}

/** The trace summary of the scope, or null (unavailable) when no span is readable. */
export async function traceSection(
  deps: Deps,
  scope: TraceScope,
  cov: CoverageBuilder,
  /** The trace's spans when the caller has read them already (else the store summarizes). */
  spans?: readonly SummaryInputSpan[],
): Promise<{
  summary: TraceSummaryBody | null;
  trace: ReturnType<typeof boundedTraceSummary> | null;
}> {
  const summary = spans
    ? summarizeTrace(scope.traceId, spans)
    : await deps.store.traces.summary(scope);
  if (summary === null) {
    cov.unavailable('trace', 'no span of this trace is stored in a readable project');
    return { summary: null, trace: null };
  }
  const cut = newCounter();
  const trace = boundedTraceSummary(summary, cut);
  cov.add('trace', 1, { more: summaryOmitted(summary), cut });
  return { summary, trace };
}

/** Error spans of a summary, earliest first, at most `error_spans`. */
export function errorSpansSection(summary: TraceSummaryBody | null, cov: CoverageBuilder) {
  if (summary === null) {
    cov.unavailable('error_spans', 'no span of this trace is stored in a readable project');
    return [];
  }
  const cut = newCounter();
  const spans = summary.error_spans.slice(0, L.error_spans).map((s) => boundedSummarySpan(s, cut));
  cov.add('error_spans', spans.length, {
    limit: L.error_spans,
    more: summary.error_spans.length - spans.length,
    cut,
  });
  return spans;
}

/**
 * Logs carrying exactly this trace id (never a time join), newest first, at most `logs`;
 * `window` narrows them to `[since, until)`. Ignored logs are included: evidence is not triage.
 */
export async function traceLogsSection(
  deps: Deps,
  projectIds: string[],
  traceId: string | null,
  cov: CoverageBuilder,
  opts: { unavailable?: string; window?: { since: number; until: number } } = {},
) {
  if (traceId === null) {
    cov.unavailable('logs', opts.unavailable ?? 'no trace id to read logs by');
    return [];
  }
  const rows = await deps.store.logs.list({
    projectIds,
    severity: null,
    search: null,
    traceId,
    serviceName: null,
    release: null,
    environment: null,
    status: 'all',
    attributeFilters: [],
    since: opts.window?.since ?? null,
    until: opts.window?.until ?? null,
    after: null,
    // One more than the limit says whether any were left out.
    limit: L.logs + 1,
  });
  const cut = newCounter();
  const logs = rows.slice(0, L.logs).map((l) => boundedLog(l, cut));
  cov.add('logs', logs.length, { limit: L.logs, more: rows.length > L.logs, cut });
  return logs;
}

/** Issues with an occurrence carrying exactly this trace id, newest first. */
export async function traceIssuesSection(deps: Deps, scope: TraceScope, cov: CoverageBuilder) {
  const all = await deps.store.traces.issues(scope);
  const cut = newCounter();
  const issues = all.slice(0, L.issues).map((i) => ({
    issue_id: i.issueId,
    project_id: i.projectId,
    title: clip(i.title, L.line_chars, cut),
    occurrence_id: i.occurrenceId,
    span_id: i.spanId,
    occurred_at: iso(i.occurredAt),
  }));
  cov.add('issues', issues.length, { limit: L.issues, more: all.length - issues.length, cut });
  return issues;
}

/** Deployments matching a release (or a range), newest finish first; none is `unavailable`. */
export async function deploymentsSection(
  deps: Deps,
  match: Omit<DeploymentMatch, 'limit'>,
  cov: CoverageBuilder,
  noneReason: string,
) {
  const rows = await deps.store.deployments.matching({ ...match, limit: L.deployments });
  if (rows.length === 0) {
    cov.unavailable('deployments', noneReason);
    return [];
  }
  const total =
    rows.length < L.deployments ? rows.length : await deps.store.deployments.countMatching(match);
  cov.add('deployments', rows.length, { limit: L.deployments, more: total - rows.length });
  return rows.map(deploymentView);
}

export const tracePath = (traceId: string) => `/api/telemetry/traces/${traceId}/investigation`;
