import type { Severity } from '../domain/severity';
import type { SpanKind } from '../domain/span-kind';

/**
 * Telemetry after validation: canonical severities, merged context, times in epoch ms.
 * This is what the store writes and what the live feed publishes.
 */
export type Context = { release: string; environment: string; service_name: string };
export type Sdk = { name: string; version: string };

type Common = Context & { id: string; sdk: Sdk };

export type Breadcrumb = {
  timestamp: string;
  category?: string;
  type?: string;
  level?: Severity;
  message?: string;
  data?: Record<string, unknown>;
};

export type IssueEvent = Common & {
  kind: 'issue';
  occurredAt: number;
  severity: Severity;
  title: string;
  message: string;
  exception: { type: string; value?: string } | null;
  stackTrace: string | null;
  fingerprint: string;
  attributes: Record<string, unknown>;
  traceId: string | null;
  spanId: string | null;
  breadcrumbs: Breadcrumb[] | null;
  breadcrumbsTruncated: boolean;
};

export type LogEvent = Common & {
  kind: 'log';
  occurredAt: number;
  severity: Severity;
  message: string;
  source: string;
  attributes: Record<string, unknown>;
  traceId: string | null;
  spanId: string | null;
  /** `attributes` serialized once, for storage and billing. */
  attributesJson: string;
  bytes: number;
};

export type SpanEvent = Common & {
  kind: 'trace_span';
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  name: string;
  operation: string | null;
  spanKind: SpanKind | null;
  startedAt: number;
  durationMs: number;
  status: 'ok' | 'error' | null;
  statusMessage: string | null;
  attributes: Record<string, unknown>;
  events: { name: string; timestamp: string; attributes?: Record<string, unknown> }[];
};

export type ActionEvent = Common & {
  kind: 'action';
  occurredAt: number;
  name: string;
  actionKind: 'page_view' | 'screen_view' | 'interaction';
  distinctId: string;
  sessionId: string | null;
  properties: Record<string, unknown>;
  traceId: string | null;
  spanId: string | null;
};

export type MetricEvent = Common & {
  kind: 'metric';
  occurredAt: number;
  name: string;
  metricKind: 'counter' | 'gauge' | 'histogram';
  value: number;
  unit: string | null;
  temporality: 'delta' | 'cumulative' | null;
  attributes: Record<string, unknown>;
  traceId: string | null;
  spanId: string | null;
  /** `attributes` serialized once, for storage and billing. */
  attributesJson: string;
  bytes: number;
};

export type TelemetryEvent = IssueEvent | LogEvent | SpanEvent | ActionEvent | MetricEvent;

export type Batch = {
  projectId: string;
  issues: IssueEvent[];
  logs: LogEvent[];
  spans: SpanEvent[];
  actions: ActionEvent[];
  metrics: MetricEvent[];
  /** Events the SDK reports it dropped before delivery (SDK batches only), one row per reason. */
  dropped?: DroppedReport[];
};

/** A batch of `projectId` with nothing in it yet. */
export const emptyBatch = (projectId: string): Batch => ({
  projectId,
  issues: [],
  logs: [],
  spans: [],
  actions: [],
  metrics: [],
});

/** Dropped events an SDK reports: never stored or billed, only counted per reason. */
export type DroppedReport = { reason: string; events: number };
