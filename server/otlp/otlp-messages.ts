/**
 * OTLP requests as this service reads them: the shape protobufjs's `toObject` gives for the
 * official opentelemetry-proto messages (generated code shipped by
 * `@opentelemetry/otlp-transformer`), with 64-bit integers as decimal strings, enums as
 * numbers, bytes as base64 and every field present. Both encodings arrive here: protobuf
 * through `decode`, JSON through `fromObject`. The generated code has no TypeScript types,
 * so these are written from opentelemetry-proto v1; only the fields Lookout maps are listed.
 */

export type OtlpAnyValue = {
  /** Which member of the `value` oneof is set; absent for an empty AnyValue. */
  value?:
    | 'stringValue'
    | 'boolValue'
    | 'intValue'
    | 'doubleValue'
    | 'arrayValue'
    | 'kvlistValue'
    | 'bytesValue';
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string;
  doubleValue?: number;
  arrayValue?: { values: OtlpAnyValue[] };
  kvlistValue?: { values: OtlpKeyValue[] };
  bytesValue?: string;
};

export type OtlpKeyValue = { key: string; value: OtlpAnyValue | null };

export type OtlpResource = { attributes: OtlpKeyValue[] } | null;
export type OtlpScope = { name: string; version: string; attributes: OtlpKeyValue[] } | null;

export type OtlpSpan = {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** 0 unspecified, 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: OtlpKeyValue[];
  events: { timeUnixNano: string; name: string; attributes: OtlpKeyValue[] }[];
  /** 0 unset, 1 ok, 2 error. */
  status: { code: number; message: string } | null;
};

export type OtlpTracesRequest = {
  resourceSpans: {
    resource: OtlpResource;
    scopeSpans: { scope: OtlpScope; spans: OtlpSpan[] }[];
  }[];
};

export type OtlpLogRecord = {
  timeUnixNano: string;
  observedTimeUnixNano: string;
  /** 1–24 (TRACE … FATAL4); 0 unspecified. */
  severityNumber: number;
  severityText: string;
  body: OtlpAnyValue | null;
  attributes: OtlpKeyValue[];
  traceId: string;
  spanId: string;
  eventName?: string;
};

export type OtlpLogsRequest = {
  resourceLogs: {
    resource: OtlpResource;
    scopeLogs: { scope: OtlpScope; logRecords: OtlpLogRecord[] }[];
  }[];
};

export type OtlpNumberPoint = {
  attributes: OtlpKeyValue[];
  startTimeUnixNano: string;
  timeUnixNano: string;
  value?: 'asDouble' | 'asInt';
  asDouble?: number;
  asInt?: string;
};

export type OtlpCountSumPoint = {
  attributes: OtlpKeyValue[];
  startTimeUnixNano: string;
  timeUnixNano: string;
  count: string;
  /** Optional in the proto: absent when the instrument cannot compute it. */
  sum?: number | null;
};

export type OtlpMetric = {
  name: string;
  unit: string;
  data?: 'gauge' | 'sum' | 'histogram' | 'exponentialHistogram' | 'summary';
  gauge?: { dataPoints: OtlpNumberPoint[] };
  /** Temporality: 1 delta, 2 cumulative (0 unspecified). */
  sum?: { dataPoints: OtlpNumberPoint[]; aggregationTemporality: number; isMonotonic: boolean };
  histogram?: { dataPoints: OtlpCountSumPoint[]; aggregationTemporality: number };
  exponentialHistogram?: { dataPoints: OtlpCountSumPoint[]; aggregationTemporality: number };
  summary?: { dataPoints: OtlpCountSumPoint[] };
};

export type OtlpMetricsRequest = {
  resourceMetrics: {
    resource: OtlpResource;
    scopeMetrics: { scope: OtlpScope; metrics: OtlpMetric[] }[];
  }[];
};

export const OTLP_SIGNALS = ['traces', 'logs', 'metrics'] as const;
export type OtlpSignal = (typeof OTLP_SIGNALS)[number];

export type OtlpRequestOf = {
  traces: OtlpTracesRequest;
  logs: OtlpLogsRequest;
  metrics: OtlpMetricsRequest;
};
