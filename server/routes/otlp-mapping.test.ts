import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OtlpSignal } from '../otlp/otlp-messages';
import { call, signIn } from '../test-support/api-client';
import { startService, type RunningService } from '../test-support/start-service';
import { createTenant, storedRows, tableCounts, type Tenant } from '../test-support/telemetry';
import {
  RESOURCE,
  gauge,
  hexId,
  kv,
  logRecord,
  logs,
  metrics,
  nanos,
  sendOtlp,
  span,
  traces,
  type Encoding,
  type OtlpJson,
} from '../test-support/otlp';

/**
 * How OTLP records map to Lookout's, read back through the read routes a console uses: each
 * rule runs with both encodings, as a client may send either.
 */

type Svc = RunningService<false>;
type Row = Record<string, unknown>;
type Reader = Tenant & { token: string };

let svc: Svc;
beforeAll(async () => {
  svc = await startService();
});
afterAll(() => svc.close());

async function reader(): Promise<Reader> {
  const tenant = await createTenant(svc, { password: 'otlp-reader-password' });
  const token = (await signIn(svc.baseUrl, tenant.email, tenant.password)).accessToken;
  return { ...tenant, token };
}

async function read<T = Row[]>(t: Reader, path: string): Promise<T> {
  const sep = path.includes('?') ? '&' : '?';
  const res = await call(svc.baseUrl, 'GET', `${path}${sep}project_id=${t.projectId}`, {
    token: t.token,
  });
  expect(res.status, res.text).toBe(200);
  return res.body as T;
}

/** Sends and expects full success; returns the decoded response for partial-success checks. */
async function send(t: Reader, signal: OtlpSignal, request: OtlpJson, as: Encoding) {
  const res = await sendOtlp(svc.baseUrl, signal, request, { as, token: t.ingestKey });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { partialSuccess?: Record<string, unknown> };
}

async function sendOk(t: Reader, signal: OtlpSignal, request: OtlpJson, as: Encoding) {
  expect(await send(t, signal, request, as)).toEqual({});
}

const spansOf = (t: Reader, traceId: string) => read(t, `/api/telemetry/traces/${traceId}`);
const byName = (rows: Row[], name: string) => rows.find((r) => r.name === name);

const event = (name: string, attrs: Record<string, string | number>, at = '00.004') => ({
  timeUnixNano: nanos(`2025-03-03T08:00:${at}Z`),
  name,
  attributes: kv(attrs),
});

for (const as of ['protobuf', 'json'] as const)
  describe(`OTLP mapping (${as})`, () => {
    describe('resource', () => {
      it('service.name, service.version and deployment.environment.name file every record', async () => {
        const t = await reader();
        const traceId = hexId(16);
        await sendOk(t, 'traces', traces([span({ traceId })]), as);
        const [s] = await spansOf(t, traceId);
        expect(s).toMatchObject({
          service_name: 'checkout-api',
          release: 'shop@2.0.0',
          environment: 'production',
          sdk_name: 'opentelemetry.nodejs',
          sdk_version: '2.0.1',
        });
      });

      it('the older deployment.environment is read; deployment.environment.name wins when both are set', async () => {
        const t = await reader();
        const { 'deployment.environment.name': _, ...base } = RESOURCE;
        const older = hexId(16);
        const both = hexId(16);
        await sendOk(
          t,
          'traces',
          traces([span({ traceId: older })], { ...base, 'deployment.environment': 'staging' }),
          as,
        );
        await sendOk(
          t,
          'traces',
          traces([span({ traceId: both })], {
            ...base,
            'deployment.environment': 'staging',
            'deployment.environment.name': 'canary',
          }),
          as,
        );
        expect((await spansOf(t, older))[0]?.environment).toBe('staging');
        expect((await spansOf(t, both))[0]?.environment).toBe('canary');
      });

      it('without telemetry.sdk attributes the SDK is named otlp', async () => {
        const t = await reader();
        const traceId = hexId(16);
        const {
          'telemetry.sdk.name': _,
          'telemetry.sdk.language': __,
          'telemetry.sdk.version': ___,
          ...bare
        } = RESOURCE;
        await sendOk(t, 'traces', traces([span({ traceId })], bare), as);
        expect((await spansOf(t, traceId))[0]).toMatchObject({
          sdk_name: 'otlp',
          sdk_version: 'unspecified',
        });
      });

      it('a resource missing an attribute: its records are rejected naming it, other resources are stored', async () => {
        const t = await reader();
        const { 'service.version': _, ...noVersion } = RESOURCE;
        const { 'service.name': __, 'deployment.environment.name': ___, ...bare } = RESOURCE;
        const good = logs([logRecord({ body: { stringValue: 'kept' } })]);
        const request = {
          resourceLogs: [
            ...(logs([logRecord(), logRecord()], noVersion).resourceLogs as unknown[]),
            ...(good.resourceLogs as unknown[]),
            ...(logs([logRecord()], bare).resourceLogs as unknown[]),
          ],
        };
        const res = await send(t, 'logs', request, as);
        expect(res.partialSuccess?.rejectedLogRecords).toBe(3);
        const message = String(res.partialSuccess?.errorMessage);
        expect(message).toMatch(/resourceLogs\[0\][^;]*service\.version/);
        expect(message).toMatch(
          /resourceLogs\[2\][^;]*service\.name, deployment\.environment\.name/,
        );
        const stored = await read(t, '/api/logs');
        expect(stored.map((l) => l.message)).toEqual(['kept']);
      });
    });

    describe('spans', () => {
      it('kind, status, status message, parent, flat dotted attributes, events, duration and ids as sent', async () => {
        const t = await reader();
        const traceId = hexId(16);
        const rootId = hexId(8);
        const childId = hexId(8);
        await sendOk(
          t,
          'traces',
          traces([
            span({
              traceId,
              spanId: rootId,
              name: 'GET /cart',
              kind: 2,
              status: { code: 1 },
              attributes: kv({
                'http.request.method': 'GET',
                'http.response.status_code': 200,
                'url.path': '/cart',
              }),
            }),
            span({
              traceId,
              spanId: childId,
              parentSpanId: rootId,
              name: 'SELECT carts',
              kind: 3,
              startTimeUnixNano: nanos('2025-03-03T08:00:00.004Z'),
              endTimeUnixNano: nanos('2025-03-03T08:00:00.008Z', 1536),
              status: { code: 2, message: 'deadlock detected' },
              attributes: kv({ 'db.system.name': 'postgresql', 'db.rows': 3.5 }),
              events: [event('retry', { attempt: 2, 'retry.reason': 'deadlock' })],
            }),
            span({
              traceId,
              parentSpanId: rootId,
              name: 'produce',
              kind: 4,
              status: null,
              attributes: [],
            }),
            span({ traceId, parentSpanId: rootId, name: 'internal', kind: 1, attributes: [] }),
            span({
              traceId,
              parentSpanId: rootId,
              name: 'consume',
              kind: 5,
              status: { code: 0, message: '' },
              attributes: [],
            }),
            span({ traceId, parentSpanId: rootId, name: 'unspecified', kind: 0, attributes: [] }),
          ]),
          as,
        );
        const spans = await spansOf(t, traceId);
        expect(spans).toHaveLength(6);
        expect(byName(spans, 'GET /cart')).toMatchObject({
          trace_id: traceId,
          span_id: rootId,
          parent_span_id: null,
          kind: 'server',
          operation: 'http.server',
          status: null,
          status_message: null,
          started_at: '2025-03-03T08:00:00.000Z',
          duration_ms: 12.000512,
          attributes: {
            'http.request.method': 'GET',
            'http.response.status_code': 200,
            'url.path': '/cart',
          },
          events: [],
        });
        expect(byName(spans, 'SELECT carts')).toMatchObject({
          span_id: childId,
          parent_span_id: rootId,
          kind: 'client',
          operation: 'db.query',
          status: 'error',
          status_message: 'deadlock detected',
          started_at: '2025-03-03T08:00:00.004Z',
          duration_ms: 4.001536,
          attributes: { 'db.system.name': 'postgresql', 'db.rows': 3.5 },
          events: [
            {
              name: 'retry',
              timestamp: '2025-03-03T08:00:00.004Z',
              attributes: { attempt: 2, 'retry.reason': 'deadlock' },
            },
          ],
        });
        expect(byName(spans, 'produce')?.kind).toBe('producer');
        expect(byName(spans, 'internal')?.kind).toBe('internal');
        expect(byName(spans, 'consume')?.kind).toBe('consumer');
        expect(byName(spans, 'unspecified')?.kind).toBeNull();
        // The read view shows only `error`; the store keeps ok apart from unset.
        const statuses = await storedRows<{ name: string; status: string | null }>(
          svc,
          'SELECT name, status FROM spans WHERE project_id = ? AND trace_id = ? ORDER BY name',
          [t.projectId, traceId],
        );
        expect(Object.fromEntries(statuses.map((r) => [r.name, r.status]))).toEqual({
          'GET /cart': 'ok',
          'SELECT carts': 'error',
          consume: null,
          internal: 'ok',
          produce: null,
          unspecified: 'ok',
        });
        // The trace list finds the trace by the root span.
        const list = await read(t, '/api/telemetry/traces');
        expect(list.find((r) => r.trace_id === traceId)).toMatchObject({
          root_span_name: 'GET /cart',
          span_count: 6,
          error_span_count: 1,
        });
      });

      it('an exception event becomes an issue with its type, message and stack, linked to the span', async () => {
        const t = await reader();
        const traceId = hexId(16);
        const spanId = hexId(8);
        const stack = 'TypeError: cart is undefined\n    at load (src/cart.ts:12:7)';
        await sendOk(
          t,
          'traces',
          traces([
            span({
              traceId,
              spanId,
              status: { code: 2 },
              events: [
                event('exception', {
                  'exception.type': 'TypeError',
                  'exception.message': 'cart is undefined',
                  'exception.stacktrace': stack,
                  'cart.id': 'c-9',
                }),
              ],
            }),
          ]),
          as,
        );
        const issues = await read(t, '/api/telemetry/issues');
        expect(issues).toHaveLength(1);
        expect(issues[0]).toMatchObject({
          message: 'cart is undefined',
          stack_trace: stack,
          trace_id: traceId,
          span_id: spanId,
          service_name: 'checkout-api',
          release: 'shop@2.0.0',
          attributes: { 'cart.id': 'c-9' },
          diagnostics: { exception: { type: 'TypeError', value: 'cart is undefined' } },
        });
        // The span keeps its event as well.
        const [s] = await spansOf(t, traceId);
        expect((s?.events as Row[])[0]?.name).toBe('exception');
      });

      it('the same exception on another span is another occurrence of the issue; a retry adds none', async () => {
        const t = await reader();
        const failing = () =>
          span({
            status: { code: 2 },
            events: [
              event('exception', {
                'exception.type': 'TimeoutError',
                'exception.message': 'upstream timed out',
                'exception.stacktrace':
                  'TimeoutError: upstream timed out\n    at call (src/up.ts:3:9)',
              }),
            ],
          });
        const request = traces([failing(), failing()]);
        await sendOk(t, 'traces', request, as);
        await sendOk(t, 'traces', request, as);
        const issues = await read(t, '/api/telemetry/issues');
        expect(issues.map((i) => i.occurrence_count)).toEqual([2]);
      });
    });

    describe('logs', () => {
      it('severity by number in each range, and by text when the number is 0', async () => {
        const t = await reader();
        const cases: [number, string, string][] = [
          [1, 'TRACE', 'info'],
          [5, 'DEBUG', 'info'],
          [8, 'DEBUG4', 'info'],
          [9, 'INFO', 'info'],
          [12, 'INFO4', 'info'],
          [13, 'WARN', 'warning'],
          [16, 'WARN4', 'warning'],
          [17, 'ERROR', 'error'],
          [20, 'ERROR4', 'error'],
          [21, 'FATAL', 'critical'],
          [24, 'FATAL4', 'critical'],
          // The number decides even when the text says otherwise.
          [9, 'ERROR', 'info'],
          [0, 'WARN', 'warning'],
          [0, 'Error', 'error'],
          [0, ' fatal ', 'critical'],
          [0, 'NOTICE', 'info'],
          [0, '', 'info'],
        ];
        await sendOk(
          t,
          'logs',
          logs(
            cases.map(([severityNumber, severityText], i) =>
              logRecord({
                severityNumber,
                severityText,
                body: { stringValue: `case ${String(i)}` },
              }),
            ),
          ),
          as,
        );
        const stored = await read(t, '/api/logs?limit=100');
        const bySeverity = cases.map(
          (_, i) => stored.find((l) => l.message === `case ${String(i)}`)?.severity,
        );
        expect(bySeverity).toEqual(cases.map((c) => c[2]));
      });

      it('a string body is the message, another body its JSON; scope is the source; time falls back to the observed time', async () => {
        const t = await reader();
        await sendOk(
          t,
          'logs',
          logs([
            logRecord({ body: { stringValue: 'plain text' } }),
            logRecord({
              body: {
                kvlistValue: {
                  values: [
                    { key: 'event', value: { stringValue: 'checkout' } },
                    { key: 'items', value: { arrayValue: { values: [{ intValue: '1' }] } } },
                  ],
                },
              },
            }),
            logRecord({ body: { intValue: '42' } }),
            logRecord({
              body: { stringValue: 'observed only' },
              timeUnixNano: '0',
              observedTimeUnixNano: nanos('2025-03-03T08:30:00.000Z'),
            }),
            logRecord({ body: null, attributes: kv({ marker: 'no body' }) }),
          ]),
          as,
        );
        const stored = await read(t, '/api/logs');
        const messages = stored.map((l) => l.message).sort();
        expect(messages).toEqual(
          ['', '42', '{"event":"checkout","items":[1]}', 'observed only', 'plain text'].sort(),
        );
        expect(stored.every((l) => l.source === 'checkout')).toBe(true);
        expect(stored.find((l) => l.message === 'observed only')?.occurred_at).toBe(
          '2025-03-03T08:30:00.000Z',
        );
      });

      it('trace and span ids are kept and findable with trace_id; dotted attribute keys filter by their path', async () => {
        const t = await reader();
        const traceId = hexId(16);
        const spanId = hexId(8);
        await sendOk(
          t,
          'logs',
          logs([
            logRecord({
              traceId,
              spanId,
              body: { stringValue: 'in trace' },
              attributes: kv({ 'http.request.method': 'POST' }),
            }),
            logRecord({ body: { stringValue: 'outside' } }),
          ]),
          as,
        );
        const found = await read(t, `/api/logs?trace_id=${traceId}`);
        expect(found).toHaveLength(1);
        expect(found[0]).toMatchObject({
          message: 'in trace',
          trace_id: traceId,
          span_id: spanId,
          attributes: { 'http.request.method': 'POST' },
        });
        const filter = [
          { path: '/http.request.method', type: 'string', operator: 'eq', value: 'POST' },
        ];
        const filtered = await read(
          t,
          `/api/logs?attribute_filters=${encodeURIComponent(JSON.stringify(filter))}`,
        );
        expect(filtered.map((l) => l.message)).toEqual(['in trace']);
      });

      it('a log record with exception attributes also becomes an issue', async () => {
        const t = await reader();
        const traceId = hexId(16);
        await sendOk(
          t,
          'logs',
          logs([
            logRecord({
              traceId,
              severityNumber: 17,
              body: { stringValue: 'payment failed' },
              attributes: kv({
                'exception.type': 'PaymentError',
                'exception.message': 'card declined',
                'exception.stacktrace': 'PaymentError: card declined\n    at pay (src/pay.ts:1:1)',
              }),
            }),
          ]),
          as,
        );
        expect(await read(t, '/api/logs')).toHaveLength(1);
        const issues = await read(t, '/api/telemetry/issues');
        expect(issues).toHaveLength(1);
        expect(issues[0]).toMatchObject({
          message: 'card declined',
          trace_id: traceId,
          stack_trace: 'PaymentError: card declined\n    at pay (src/pay.ts:1:1)',
          diagnostics: { exception: { type: 'PaymentError', value: 'card declined' } },
        });
      });
    });

    describe('metrics', () => {
      const point = (o: OtlpJson = {}) => ({
        startTimeUnixNano: nanos('2025-03-03T07:00:00.000Z'),
        timeUnixNano: nanos('2025-03-03T08:00:00.000Z'),
        attributes: kv({ 'http.route': '/cart' }),
        ...o,
      });
      const sum = (name: string, temporality: number, isMonotonic: boolean, value: number) => ({
        name,
        unit: '{request}',
        sum: {
          aggregationTemporality: temporality,
          isMonotonic,
          dataPoints: [point({ asInt: String(value) })],
        },
      });

      it('gauge, sums by monotonicity and temporality, and histograms as .count and .sum', async () => {
        const t = await reader();
        await sendOk(
          t,
          'metrics',
          metrics([
            gauge('cpu.utilization', 0.25, { attributes: kv({ 'host.name': 'web-1' }) }),
            sum('requests.delta', 1, true, 5),
            sum('requests.total', 2, true, 120),
            sum('connections.open', 2, false, 7),
            sum('queue.change', 1, false, -3),
            {
              name: 'http.server.request.duration',
              unit: 's',
              histogram: {
                aggregationTemporality: 1,
                dataPoints: [
                  point({
                    count: '4',
                    sum: 0.5,
                    bucketCounts: ['1', '3'],
                    explicitBounds: [0.1],
                  }),
                ],
              },
            },
            {
              name: 'rpc.latency',
              unit: 'ms',
              summary: { dataPoints: [point({ count: '2', sum: 30 })] },
            },
          ]),
          as,
        );
        const samples = await read(t, '/api/telemetry/metrics?limit=100');
        const view = (name: string) => {
          const s = samples.find((m) => m.name === name);
          return s && { kind: s.kind, temporality: s.temporality, unit: s.unit, value: s.value };
        };
        expect(samples).toHaveLength(9);
        expect(view('cpu.utilization')).toEqual({
          kind: 'gauge',
          temporality: null,
          unit: 'ms',
          value: 0.25,
        });
        expect(view('requests.delta')).toEqual({
          kind: 'counter',
          temporality: 'delta',
          unit: '{request}',
          value: 5,
        });
        expect(view('requests.total')).toEqual({
          kind: 'counter',
          temporality: 'cumulative',
          unit: '{request}',
          value: 120,
        });
        // An up-down counter's cumulative sum is a level.
        expect(view('connections.open')).toMatchObject({ kind: 'gauge', value: 7 });
        expect(view('queue.change')).toMatchObject({ kind: 'counter', value: -3 });
        expect(view('http.server.request.duration.count')).toEqual({
          kind: 'counter',
          temporality: 'delta',
          unit: null,
          value: 4,
        });
        expect(view('http.server.request.duration.sum')).toEqual({
          kind: 'counter',
          temporality: 'delta',
          unit: 's',
          value: 0.5,
        });
        expect(view('rpc.latency.count')).toMatchObject({ temporality: 'cumulative', value: 2 });
        expect(view('rpc.latency.sum')).toMatchObject({ unit: 'ms', value: 30 });
        const cpu = samples.find((m) => m.name === 'cpu.utilization');
        expect(cpu).toMatchObject({
          attributes: { 'host.name': 'web-1' },
          occurred_at: '2025-03-03T08:00:00.000Z',
          service_name: 'checkout-api',
        });
      });
    });

    describe('partial success', () => {
      it('bad spans are counted in rejectedSpans with the reason; the good one is stored', async () => {
        const t = await reader();
        const traceId = hexId(16);
        const res = await send(
          t,
          'traces',
          traces([
            span({ traceId: hexId(8), name: 'short trace id' }),
            span({
              traceId,
              name: 'ends first',
              endTimeUnixNano: nanos('2025-03-03T07:59:59.000Z'),
            }),
            span({ traceId, name: 'no start', startTimeUnixNano: '0' }),
            span({ traceId, name: 'kept' }),
          ]),
          as,
        );
        expect(res.partialSuccess?.rejectedSpans).toBe(3);
        const message = String(res.partialSuccess?.errorMessage);
        expect(message).toMatch(/spans\[0\]: traceId must be 16 bytes, not 8/);
        expect(message).toMatch(/spans\[1\]: endTimeUnixNano is before startTimeUnixNano/);
        expect(message).toMatch(/spans\[2\]: startTimeUnixNano is missing/);
        expect((await spansOf(t, traceId)).map((s) => s.name)).toEqual(['kept']);
      });

      it('a bad log record is counted in rejectedLogRecords; the others are stored', async () => {
        const t = await reader();
        const res = await send(
          t,
          'logs',
          logs([
            logRecord({ spanId: hexId(16), body: { stringValue: 'long span id' } }),
            logRecord({ body: { stringValue: 'kept' } }),
          ]),
          as,
        );
        expect(res.partialSuccess?.rejectedLogRecords).toBe(1);
        expect(String(res.partialSuccess?.errorMessage)).toMatch(
          /logRecords\[0\]: spanId must be 8 bytes, not 16/,
        );
        expect((await read(t, '/api/logs')).map((l) => l.message)).toEqual(['kept']);
      });

      it('data points with no value or a NaN value are counted in rejectedDataPoints', async () => {
        const t = await reader();
        const time = nanos('2025-03-03T08:00:00.000Z');
        const res = await send(
          t,
          'metrics',
          metrics([
            {
              name: 'queue.depth',
              unit: '',
              gauge: {
                dataPoints: [
                  { timeUnixNano: time, attributes: kv({ n: 1 }) },
                  // OTLP/JSON writes NaN as the string "NaN".
                  { timeUnixNano: time, asDouble: 'NaN', attributes: kv({ n: 2 }) },
                  { timeUnixNano: time, asDouble: 4, attributes: kv({ n: 3 }) },
                ],
              },
            },
          ]),
          as,
        );
        expect(res.partialSuccess?.rejectedDataPoints).toBe(2);
        const message = String(res.partialSuccess?.errorMessage);
        expect(message).toMatch(/dataPoints\[0\]: the data point has no value/);
        expect(message).toMatch(/dataPoints\[1\]: the value NaN is not finite/);
        const samples = await read(t, '/api/telemetry/metrics');
        expect(samples.map((s) => [s.value, s.unit])).toEqual([[4, null]]);
        expect((await tableCounts(svc, t.projectId)).metric_samples).toBe(1);
      });

      it('a histogram point whose .sum cannot be stored is rejected whole: its .count is not stored either', async () => {
        const t = await reader();
        const histogram = (name: string, unit: string, sum: number | string) => ({
          name,
          unit,
          histogram: {
            aggregationTemporality: 2,
            dataPoints: [
              { timeUnixNano: nanos('2025-03-03T08:00:00.000Z'), count: '3', sum, attributes: [] },
            ],
          },
        });
        const res = await send(
          t,
          'metrics',
          metrics([
            // The unit is kept only on .sum, and is longer than a unit may be.
            histogram('long.unit', 'u'.repeat(65), 1.5),
            histogram('nan.sum', 'ms', 'NaN'),
            histogram('kept', 'ms', 2),
          ]),
          as,
        );
        expect(res.partialSuccess?.rejectedDataPoints).toBe(2);
        const samples = await read(t, '/api/telemetry/metrics');
        expect(samples.map((s) => s.name).sort()).toEqual(['kept.count', 'kept.sum']);
      });
    });
  });
