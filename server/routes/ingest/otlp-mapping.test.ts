import { describe, expect, it } from 'vitest';
import { storedRows } from '../../test-support/telemetry';
import { RESOURCE, hexId, kv, logRecord, logs, nanos, span, traces } from '../../test-support/otlp';
import { otlpContractService, type OtlpReader } from '../../test-support/otlp-contract';

/**
 * OTLP mapping of resources and spans to Lookout's records.
 * Read back through the read routes a console uses; each rule runs with both encodings, as a
 * client may send either.
 */

type Row = Record<string, unknown>;
type Reader = OtlpReader;

const { svc, reader, read, send, sendOk } = otlpContractService();

const spansOf = (t: Reader, traceId: string) => read(t, `/api/telemetry/traces/${traceId}`);
const byName = (rows: Row[], name: string) => rows.find((r) => r.name === name);

const event = (name: string, attrs: Record<string, string | number>, at = '00.004') => ({
  timeUnixNano: nanos(`2025-03-03T08:00:${at}Z`),
  name,
  attributes: kv(attrs),
});

for (const as of ['protobuf', 'json'] as const)
  describe(`OTLP mapping: resources and spans (${as})`, () => {
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
          svc(),
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
  });
