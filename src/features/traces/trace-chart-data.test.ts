import { describe, expect, it } from 'vitest';
import type { TraceRow } from '../../api/queries/traces';
import { logDomain, traceChartData, X_ROOM } from './trace-chart-data';

const row = (over: Partial<TraceRow>): TraceRow => ({
  trace_id: 'a'.repeat(32),
  project_ids: [],
  root_span_name: 'GET /cart',
  root_service_name: 'checkout-api',
  root_operation: 'http.server',
  span_count: 5,
  error_span_count: 0,
  service_count: 1,
  started_at: '2026-11-20T12:00:00.000Z',
  duration_ms: 120,
  services: ['checkout-api'],
  releases: [],
  environments: [],
  next_action: { code: 'inspect_trace', target: 'trace_summary' },
  ...over,
});

describe('traceChartData', () => {
  it('puts traces with an error span in their own series', () => {
    const data = traceChartData(
      [
        row({ trace_id: '1'.repeat(32), error_span_count: 2, duration_ms: 900 }),
        row({ trace_id: '2'.repeat(32), started_at: '2026-11-20T13:00:00.000Z' }),
      ],
      'linear',
    );
    expect(data.error.map((p) => [p.traceId, p.y, p.errorSpans])).toEqual([
      ['1'.repeat(32), 900, 2],
    ]);
    expect(data.ok.map((p) => [p.traceId, p.x])).toEqual([
      ['2'.repeat(32), Date.parse('2026-11-20T13:00:00.000Z')],
    ]);
    const room = 3_600_000 * X_ROOM;
    expect(data.xDomain).toEqual([
      Date.parse('2026-11-20T12:00:00.000Z') - room,
      Date.parse('2026-11-20T13:00:00.000Z') + room,
    ]);
    expect(data.yDomain).toEqual([0, 1000]);
    expect(data.yTicks).toBeUndefined();
  });

  it('lifts zero durations to the floor of a log axis and keeps the real duration', () => {
    const data = traceChartData([row({ duration_ms: 0 }), row({ duration_ms: 4200 })], 'log');
    expect(data.ok.map((p) => [p.y, p.durationMs])).toEqual([
      [0.001, 0],
      [4200, 4200],
    ]);
    expect(data.yDomain).toEqual([0.001, 10_000]);
  });

  it('widens a single moment and skips unreadable starts', () => {
    const data = traceChartData([row({}), row({ started_at: 'later' })], 'log');
    expect(data.ok).toHaveLength(1);
    const at = Date.parse('2026-11-20T12:00:00.000Z');
    expect(data.xDomain).toEqual([at - 60_000, at + 60_000]);
  });

  it('draws an empty page without failing', () => {
    const data = traceChartData([], 'linear');
    expect(data.ok).toEqual([]);
    expect(data.error).toEqual([]);
    expect(data.yDomain).toEqual([0, 1]);
  });
});

describe('axes', () => {
  it('puts log ticks at powers of ten around the durations', () => {
    expect(logDomain([3, 450])).toEqual({ domain: [1, 1000], ticks: [1, 10, 100, 1000] });
    expect(logDomain([0.2, 5])).toEqual({ domain: [0.1, 10], ticks: [0.1, 1, 10] });
    expect(logDomain([1])).toEqual({ domain: [1, 10], ticks: [1, 10] });
  });
});
