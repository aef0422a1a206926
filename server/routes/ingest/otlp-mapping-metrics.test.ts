import { describe, expect, it } from 'vitest';
import { gauge, kv, metrics, nanos, type OtlpJson } from '../../test-support/otlp';
import { otlpContractService } from '../../test-support/otlp-contract';

/**
 * OTLP mapping of metric data points to Lookout metric samples.
 * Read back through the read routes a console uses; each rule runs with both encodings, as a
 * client may send either.
 */

const { reader, read, sendOk } = otlpContractService();

for (const as of ['protobuf', 'json'] as const)
  describe(`OTLP mapping: metrics (${as})`, () => {
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
  });
