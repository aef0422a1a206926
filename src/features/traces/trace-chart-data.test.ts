import { describe, expect, it } from 'vitest';
import type { TraceRow } from '../../api/queries/traces';
import {
  chartCoverageText,
  logDomain,
  traceChartData,
  type TraceChartRange,
} from './trace-chart-data';

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

const HOUR = 3_600_000;
/** The last 24 hours up to 20 Nov 2026 14:00 UTC, every page loaded. */
const TO = Date.parse('2026-11-20T14:00:00.000Z');
const DAY: TraceChartRange = { from: TO - 24 * HOUR, to: TO, complete: true };

describe('traceChartData', () => {
  it('puts traces with an error span in their own series', () => {
    const data = traceChartData(
      [
        row({ trace_id: '1'.repeat(32), error_span_count: 2, duration_ms: 900 }),
        row({ trace_id: '2'.repeat(32), started_at: '2026-11-20T13:00:00.000Z' }),
      ],
      'linear',
      DAY,
    );
    expect(data.error.map((p) => [p.traceId, p.y, p.errorSpans])).toEqual([
      ['1'.repeat(32), 900, 2],
    ]);
    expect(data.ok.map((p) => [p.traceId, p.x])).toEqual([
      ['2'.repeat(32), Date.parse('2026-11-20T13:00:00.000Z')],
    ]);
    expect(data.yDomain).toEqual([0, 1000]);
    expect(data.yTicks).toBeUndefined();
  });

  it('lifts zero durations to the floor of a log axis and keeps the real duration', () => {
    const data = traceChartData([row({ duration_ms: 0 }), row({ duration_ms: 4200 })], 'log', DAY);
    expect(data.ok.map((p) => [p.y, p.durationMs])).toEqual([
      [0.001, 0],
      [4200, 4200],
    ]);
    expect(data.yDomain).toEqual([0.001, 10_000]);
  });

  it('skips unreadable starts', () => {
    const data = traceChartData([row({}), row({ started_at: 'later' })], 'log', DAY);
    expect(data.ok).toHaveLength(1);
  });

  it('spans the whole selected range, not only the loaded traces', () => {
    // Two traces an hour apart in a 24-hour range: the axis is the 24 hours.
    const data = traceChartData(
      [row({ started_at: '2026-11-20T13:00:00.000Z' }), row({})],
      'log',
      DAY,
    );
    expect(data.xDomain).toEqual([TO - 24 * HOUR, TO]);
    expect(data.xTicks[0]).toBeLessThanOrEqual(Date.parse('2026-11-19T18:00:00.000Z'));
    expect(data.notLoaded).toBeNull();
    expect(data.loadedFrom).toBe(TO - 24 * HOUR);
    expect(chartCoverageText(2, data)).toBe('All 2 traces in the range');
  });

  it('marks the older part of the range as not loaded while more pages remain', () => {
    const data = traceChartData([row({ started_at: '2026-11-20T13:00:00.000Z' }), row({})], 'log', {
      ...DAY,
      complete: false,
    });
    const oldest = Date.parse('2026-11-20T12:00:00.000Z');
    expect(data.xDomain).toEqual([TO - 24 * HOUR, TO]);
    expect(data.loadedFrom).toBe(oldest);
    expect(data.notLoaded).toEqual([TO - 24 * HOUR, oldest]);
    expect(chartCoverageText(2, data)).toBe(
      'The newest 2 traces, from 20 Nov 12:00 to 20 Nov 14:00 UTC; older ones in the range are not loaded yet',
    );
  });

  it('widens the axis for a trace outside the range rather than dropping it', () => {
    const data = traceChartData([row({ started_at: '2026-11-20T15:00:00.000Z' })], 'log', DAY);
    expect(data.xDomain).toEqual([TO - 24 * HOUR, TO + HOUR]);
  });

  it('draws an empty page without failing', () => {
    const data = traceChartData([], 'linear', DAY);
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
