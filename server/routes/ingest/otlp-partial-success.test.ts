import { describe, expect, it } from 'vitest';
import { tableCounts } from '../../test-support/telemetry';
import { hexId, kv, logRecord, logs, metrics, nanos, span, traces } from '../../test-support/otlp';
import { otlpContractService, type OtlpReader } from '../../test-support/otlp-contract';

/**
 * OTLP partial success: bad records are counted and named, the good ones in the same request
 * are stored.
 * Read back through the read routes a console uses; each rule runs with both encodings, as a
 * client may send either.
 */

type Reader = OtlpReader;

const { svc, reader, read, send } = otlpContractService();

const spansOf = (t: Reader, traceId: string) => read(t, `/api/telemetry/traces/${traceId}`);

for (const as of ['protobuf', 'json'] as const)
  describe(`OTLP partial success (${as})`, () => {
    describe('records', () => {
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
        expect((await tableCounts(svc(), t.projectId)).metric_samples).toBe(1);
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
