/**
 * A small program instrumented with the official OpenTelemetry JS SDK, as a user would write
 * it: everything about where and how to export comes from the standard OTEL_* environment
 * variables (endpoint, headers, per-signal protocol, compression, service name, resource
 * attributes). It records one server span with a failing child span, logs inside it, an
 * exception, a counter and a histogram; shuts the SDK down (which flushes every provider);
 * prints one JSON line describing what it sent; and exits non-zero, saying why, unless every
 * export of every signal succeeded.
 *
 * Usage: tsx e2e/support/otel-program.ts <tag>   (the tag makes names unique to one run)
 */
import { diag, DiagLogLevel, metrics, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { logs as logsApi, SeverityNumber } from '@opentelemetry/api-logs';
import { OTLPLogExporter as JsonLogExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { OTLPLogExporter as ProtoLogExporter } from '@opentelemetry/exporter-logs-otlp-proto';
import { OTLPMetricExporter as JsonMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPMetricExporter as ProtoMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { logs, metrics as sdkMetrics, NodeSDK } from '@opentelemetry/sdk-node';

type Signal = 'traces' | 'logs' | 'metrics';

/** What the test reads back from stdout. */
export type OtelProgramOutput = {
  trace_id: string;
  server_span_id: string;
  child_span_id: string;
  server_span: string;
  child_span: string;
  error_text: string;
  logs: { message: string; severity: 'info' | 'warning' | 'error' }[];
  counter: string;
  histogram: string;
  exports: Record<Signal, number>;
};

const tag = process.argv[2];
if (!tag || !/^[a-z]+$/.test(tag)) {
  console.error('usage: otel-program.ts <tag of lowercase letters>');
  process.exit(2);
}

// Any SDK complaint (a failed or partially rejected export, an ignored header, a bad URL) fails
// the run: the SDK reports those through diag and otherwise carries on silently.
const problems: string[] = [];
diag.setLogger(
  {
    error: (message, ...args) =>
      problems.push(`diag error: ${message} ${args.map(String).join(' ')}`),
    warn: (message, ...args) =>
      problems.push(`diag warn: ${message} ${args.map(String).join(' ')}`),
    info: () => {},
    debug: () => {},
    verbose: () => {},
  },
  DiagLogLevel.WARN,
);

/** The OTLP protocol the environment asks for one signal, as the SDK reads it. */
function protocolOf(signal: Signal): 'http/protobuf' | 'http/json' {
  const value = (
    process.env[`OTEL_EXPORTER_OTLP_${signal.toUpperCase()}_PROTOCOL`] ??
    process.env.OTEL_EXPORTER_OTLP_PROTOCOL ??
    'http/protobuf'
  ).trim();
  if (value !== 'http/protobuf' && value !== 'http/json')
    throw new Error(`this program speaks OTLP/HTTP only, not ${value} (${signal})`);
  return value;
}

const exports: Record<Signal, number> = { traces: 0, logs: 0, metrics: 0 };

type ExportCallback = (result: { code: number; error?: Error }) => void;

/**
 * Counts an exporter's successful exports and records its failures with the reason; the
 * exporter is otherwise untouched (built from the environment, used by the SDK as is).
 */
function observed<E extends object>(signal: Signal, exporter: E): E {
  const target = exporter as unknown as {
    export: (items: unknown, done: ExportCallback) => void;
  };
  const original = target.export.bind(target);
  target.export = (items, done) =>
    original(items, (result) => {
      // ExportResultCode.SUCCESS is 0.
      if (result.code === 0) exports[signal] += 1;
      else problems.push(`${signal} export failed: ${result.error?.message ?? 'no reason given'}`);
      done(result);
    });
  return exporter;
}

// Constructed without options: endpoint, headers, compression and timeout come from OTEL_*.
const traceExporter = observed(
  'traces',
  protocolOf('traces') === 'http/json' ? new JsonTraceExporter() : new ProtoTraceExporter(),
);
const logExporter = observed(
  'logs',
  protocolOf('logs') === 'http/json' ? new JsonLogExporter() : new ProtoLogExporter(),
);
const metricExporter = observed(
  'metrics',
  protocolOf('metrics') === 'http/json' ? new JsonMetricExporter() : new ProtoMetricExporter(),
);

const sdk = new NodeSDK({
  traceExporter,
  logRecordProcessors: [new logs.BatchLogRecordProcessor({ exporter: logExporter })],
  // The reader exports once more on shutdown; the interval only has to outlast the program.
  metricReaders: [
    new sdkMetrics.PeriodicExportingMetricReader({
      exporter: metricExporter,
      exportIntervalMillis: 60_000,
    }),
  ],
});
sdk.start();

const serverSpan = `GET /checkout/${tag}`;
const childSpan = `charge card ${tag}`;
const errorText = `card processor refused ${tag}`;
const counter = `otel.${tag}.orders`;
const histogram = `otel.${tag}.duration`;
const logLines: OtelProgramOutput['logs'] = [
  { message: `checkout started ${tag}`, severity: 'info' },
  { message: `charge retried ${tag}`, severity: 'warning' },
  { message: `charge failed ${tag}`, severity: 'error' },
];
const SEVERITY = {
  info: { severityNumber: SeverityNumber.INFO, severityText: 'INFO' },
  warning: { severityNumber: SeverityNumber.WARN, severityText: 'WARN' },
  error: { severityNumber: SeverityNumber.ERROR, severityText: 'ERROR' },
} as const;

const tracer = trace.getTracer('lookout-e2e-shop', '1.0.0');
const logger = logsApi.getLogger('lookout-e2e-shop', '1.0.0');
const meter = metrics.getMeter('lookout-e2e-shop', '1.0.0');
const orders = meter.createCounter(counter, { description: 'Orders placed', unit: '{order}' });
const duration = meter.createHistogram(histogram, { description: 'Checkout time', unit: 'ms' });

const ids = tracer.startActiveSpan(
  serverSpan,
  {
    kind: SpanKind.SERVER,
    attributes: { 'http.request.method': 'GET', 'http.route': `/checkout/${tag}` },
  },
  (server) => {
    const child = tracer.startActiveSpan(
      childSpan,
      {
        kind: SpanKind.CLIENT,
        attributes: { 'http.request.method': 'POST', 'peer.service': 'payments' },
      },
      (span) => {
        // Emitted in the active span: the SDK stamps its trace and span ids on each record.
        for (const line of logLines)
          logger.emit({
            ...SEVERITY[line.severity],
            body: line.message,
            attributes: { 'order.tag': tag },
          });
        span.recordException(new Error(errorText));
        span.setStatus({ code: SpanStatusCode.ERROR, message: errorText });
        span.end();
        return span.spanContext().spanId;
      },
    );
    orders.add(3, { 'http.route': `/checkout/${tag}` });
    for (const ms of [12, 40, 95]) duration.record(ms, { 'http.route': `/checkout/${tag}` });
    server.setStatus({ code: SpanStatusCode.OK });
    server.end();
    return { traceId: server.spanContext().traceId, server: server.spanContext().spanId, child };
  },
);

// Shutting the SDK down flushes the span and log processors and collects the metrics once more.
await sdk
  .shutdown()
  .catch((e: unknown) =>
    problems.push(`shutting the SDK down failed: ${e instanceof Error ? e.message : String(e)}`),
  );

for (const signal of ['traces', 'logs', 'metrics'] as const)
  if (exports[signal] === 0) problems.push(`no ${signal} export succeeded`);
if (problems.length > 0) {
  console.error(`OpenTelemetry export failed:\n${problems.join('\n')}`);
  process.exit(1);
}

const output: OtelProgramOutput = {
  trace_id: ids.traceId,
  server_span_id: ids.server,
  child_span_id: ids.child,
  server_span: serverSpan,
  child_span: childSpan,
  error_text: errorText,
  logs: logLines,
  counter,
  histogram,
  exports,
};
console.log(JSON.stringify(output));
