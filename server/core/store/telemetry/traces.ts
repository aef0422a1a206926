import type { SpanEvent } from '../../batch';
import type { SummaryInputSpan, TraceSummaryBody } from '../../../domain/trace-summary';

export interface TracesStore {
  /** Matching traces, newest first by (start, trace id), at most `limit`. */
  discover(q: TraceDiscoveryQuery): Promise<TraceDiscoveryRow[]>;
  /** Every span of the trace in scope, by start time (then span id). */
  spans(scope: TraceScope): Promise<SpanRecord[]>;
  /**
   * The same spans in the same order, a page of at most `pageSize` at a time, so a trace of
   * any size is sent in bounded memory.
   */
  spanPages(scope: TraceScope, pageSize?: number): AsyncIterable<SpanRecord[]>;
  /**
   * The span list's JSON array as `GET /api/telemetry/traces/{trace_id}` answers it (the
   * spans of `spans`, each as `spanView` gives it), a chunk per page: a trace of any size is
   * sent in bounded memory, and the view is written from the stored row without building
   * records first.
   */
  spanListJson(scope: TraceScope): AsyncIterable<Uint8Array>;
  /** The same spans without attributes and events, for the summary. */
  summarySpans(scope: TraceScope): Promise<SummaryInputSpan[]>;
  /** The trace's summary (`summarizeTrace` of those spans), or null when no span is in scope. */
  summary(scope: TraceScope): Promise<TraceSummaryBody | null>;
  /** Issues whose occurrences carry exactly this trace id, newest first. */
  issues(scope: TraceScope): Promise<TraceIssueRef[]>;
}

/** A stored span as the span list and the live feed return it. */
export type SpanRecord = Omit<SpanEvent, 'kind'> & { projectId: string };

/** `GET /api/telemetry/traces`, validated. A trace matches on its spans in `projectIds`. */
export type TraceDiscoveryQuery = {
  projectIds: string[];
  /** The trace has at least one span (in scope) with this service, release or environment. */
  serviceName: string | null;
  release: string | null;
  environment: string | null;
  /** `error`: at least one error span; `ok`: none. */
  status: 'error' | 'ok' | null;
  /** Epoch ms, inclusive, compared with the trace's start. */
  since: number | null;
  minDurationMs: number | null;
  /** Traces strictly after this position in newest-first (start, trace id) order. */
  after: { time: number; traceId: string } | null;
  limit: number;
};

/** One trace as discovery sees it: its spans in the projects of the query combined. */
export type TraceDiscoveryRow = {
  traceId: string;
  projectIds: string[];
  startedAt: number;
  endedAt: number;
  spanCount: number;
  errorSpanCount: number;
  root: { name: string; serviceName: string; operation: string | null };
  services: string[];
  releases: string[];
  environments: string[];
  genericNameSpans: number;
  unmatchedRouteSpans: number;
  genericOperationSpans: number;
};

/** The spans of one trace a detail read covers. */
export type TraceScope = {
  traceId: string;
  projectIds: string[];
  release: string | null;
  environment: string | null;
};

/** An issue with an occurrence carrying the trace (its newest such occurrence). */
export type TraceIssueRef = {
  issueId: string;
  projectId: string;
  title: string;
  occurrenceId: string;
  spanId: string | null;
  occurredAt: number;
};
