import type { MetricGroupBy, MetricRecord } from '../../core/store/telemetry/metrics';

export type MetricDbRow = {
  id: string;
  event_id: string;
  project_id: string;
  occurred_at: number;
  name: string;
  kind: MetricRecord['metricKind'];
  value: number;
  unit: string | null;
  temporality: MetricRecord['temporality'];
  attributes: string;
  environment: string;
  release: string;
  service_name: string;
  trace_id: string | null;
  span_id: string | null;
  sdk_name: string;
  sdk_version: string;
};

export const METRIC_COLUMNS = `id, event_id, project_id, occurred_at, name, kind, value, unit,
  temporality, attributes, environment, release, service_name, trace_id, span_id, sdk_name,
  sdk_version`;

export const toMetric = (r: MetricDbRow): MetricRecord => ({
  id: r.id,
  eventId: r.event_id,
  projectId: r.project_id,
  occurredAt: r.occurred_at,
  name: r.name,
  metricKind: r.kind,
  value: r.value,
  unit: r.unit,
  temporality: r.temporality,
  attributes: JSON.parse(r.attributes) as Record<string, unknown>,
  environment: r.environment,
  release: r.release,
  service_name: r.service_name,
  traceId: r.trace_id,
  spanId: r.span_id,
  sdk: { name: r.sdk_name, version: r.sdk_version },
});

/** The column a series groups by (`none`: one group, key null). */
export const METRIC_GROUP_COLUMN: Record<MetricGroupBy, string> = {
  none: 'NULL',
  service_name: 'service_name',
  release: 'release',
  environment: 'environment',
};
