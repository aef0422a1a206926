import { describe, expect, it } from 'vitest';
import { hexId, kv, logRecord, logs, nanos } from '../../test-support/otlp';
import { otlpContractService } from '../../test-support/otlp-contract';

/**
 * OTLP mapping of log records to Lookout logs (and exception logs to issues).
 * Read back through the read routes a console uses; each rule runs with both encodings, as a
 * client may send either.
 */

const { reader, read, sendOk } = otlpContractService();

for (const as of ['protobuf', 'json'] as const)
  describe(`OTLP mapping: logs (${as})`, () => {
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
  });
