import { describe, expect, it } from 'vitest';
import { mapMetrics } from './map-metrics';
import { OtlpAdmission } from './otlp-admission';
import type { OtlpMetric, OtlpMetricsRequest } from './otlp-messages';

const RESOURCE = {
  attributes: [
    ['service.name', 'api'],
    ['service.version', 'api@1'],
    ['deployment.environment.name', 'production'],
  ].map(([key, v]) => ({
    key: key ?? '',
    value: { value: 'stringValue' as const, stringValue: v },
  })),
};
const TIME = '1740988800000000000';

function samples(...list: OtlpMetric[]) {
  const request: OtlpMetricsRequest = {
    resourceMetrics: [{ resource: RESOURCE, scopeMetrics: [{ scope: null, metrics: list }] }],
  };
  const admission = new OtlpAdmission('00000000-0000-4000-8000-000000000000');
  mapMetrics(request, admission);
  return {
    samples: admission.batch.metrics.map((m) => ({
      name: m.name,
      kind: m.metricKind,
      temporality: m.temporality,
      unit: m.unit,
      value: m.value,
    })),
    partial: admission.partialSuccess(),
  };
}

const number = (v: number) => ({
  attributes: [],
  startTimeUnixNano: '0',
  timeUnixNano: TIME,
  value: 'asDouble' as const,
  asDouble: v,
});
const countSum = (count: string, sum: number | null) => ({
  attributes: [],
  startTimeUnixNano: '0',
  timeUnixNano: TIME,
  count,
  sum,
});
const sum = (temporality: number, isMonotonic: boolean): OtlpMetric => ({
  name: 's',
  unit: 'By',
  data: 'sum',
  sum: { aggregationTemporality: temporality, isMonotonic, dataPoints: [number(3)] },
});

describe('metric samples of each OTLP type', () => {
  it('a gauge is a gauge without temporality; a blank unit is none', () => {
    expect(
      samples({ name: 'g', unit: ' ', data: 'gauge', gauge: { dataPoints: [number(1.5)] } })
        .samples,
    ).toEqual([{ name: 'g', kind: 'gauge', temporality: null, unit: null, value: 1.5 }]);
  });

  it('sums: monotonic is a counter with its temporality; non-monotonic cumulative is a gauge; non-monotonic delta a counter', () => {
    const one = (m: OtlpMetric) => samples(m).samples[0];
    expect(one(sum(1, true))).toMatchObject({ kind: 'counter', temporality: 'delta', unit: 'By' });
    expect(one(sum(2, true))).toMatchObject({ kind: 'counter', temporality: 'cumulative' });
    expect(one(sum(2, false))).toMatchObject({ kind: 'gauge', temporality: 'cumulative' });
    expect(one(sum(1, false))).toMatchObject({ kind: 'counter', temporality: 'delta' });
    expect(one(sum(0, true))).toMatchObject({ kind: 'counter', temporality: null });
  });

  it('histogram, exponential histogram and summary: .count (no unit) and .sum (the unit)', () => {
    const { samples: got } = samples(
      {
        name: 'h',
        unit: 's',
        data: 'histogram',
        histogram: { aggregationTemporality: 1, dataPoints: [countSum('4', 0.5)] },
      },
      {
        name: 'e',
        unit: 'ms',
        data: 'exponentialHistogram',
        exponentialHistogram: { aggregationTemporality: 2, dataPoints: [countSum('2', 8)] },
      },
      { name: 'q', unit: 'ms', data: 'summary', summary: { dataPoints: [countSum('5', 10)] } },
    );
    expect(got).toEqual([
      { name: 'h.count', kind: 'counter', temporality: 'delta', unit: null, value: 4 },
      { name: 'h.sum', kind: 'counter', temporality: 'delta', unit: 's', value: 0.5 },
      { name: 'e.count', kind: 'counter', temporality: 'cumulative', unit: null, value: 2 },
      { name: 'e.sum', kind: 'counter', temporality: 'cumulative', unit: 'ms', value: 8 },
      { name: 'q.count', kind: 'counter', temporality: 'cumulative', unit: null, value: 5 },
      { name: 'q.sum', kind: 'counter', temporality: 'cumulative', unit: 'ms', value: 10 },
    ]);
  });

  it('a histogram without a sum gives its .count only', () => {
    expect(
      samples({
        name: 'h',
        unit: 's',
        data: 'histogram',
        histogram: { aggregationTemporality: 1, dataPoints: [countSum('4', null)] },
      }).samples.map((s) => s.name),
    ).toEqual(['h.count']);
  });

  it('rejections count data points: a metric without points counts one, a point failing on .sum counts once and stores nothing', () => {
    const { samples: got, partial } = samples(
      { name: 'empty', unit: '', data: 'gauge', gauge: { dataPoints: [] } },
      {
        name: 'h',
        unit: 'u'.repeat(65),
        data: 'histogram',
        histogram: { aggregationTemporality: 1, dataPoints: [countSum('4', 1)] },
      },
      { name: 'g', unit: '', data: 'gauge', gauge: { dataPoints: [number(NaN), number(2)] } },
    );
    expect(got.map((s) => [s.name, s.value])).toEqual([['g', 2]]);
    expect(partial?.rejected).toBe(3);
    expect(partial?.errorMessage).toMatch(/metrics\[0\]: the metric empty has no data points/);
  });
});
