import { describe, expect, it } from 'vitest';
import { summarizeTrace, type SummaryInputSpan } from './trace-summary';

const T = Date.parse('2026-01-01T00:00:00.000Z');
const span = (spanId: string, parentSpanId: string | null, o: Partial<SummaryInputSpan> = {}) =>
  ({
    projectId: 'p1',
    spanId,
    parentSpanId,
    name: `op ${spanId}`,
    serviceName: 'web',
    operation: null,
    kind: null,
    startedAt: T,
    durationMs: 10,
    status: null,
    statusMessage: null,
    release: 'r1',
    environment: 'production',
    ...o,
  }) satisfies SummaryInputSpan;

describe('summarizeTrace', () => {
  it('is null for no spans', () => {
    expect(summarizeTrace('t', [])).toBeNull();
  });

  it('follows the longest child at each level, ties to the earlier start', () => {
    const s = summarizeTrace('t', [
      span('root', null, { durationMs: 100 }),
      span('a', 'root', { startedAt: T + 1, durationMs: 40 }),
      span('b', 'root', { startedAt: T + 2, durationMs: 60 }),
      span('b1', 'b', { startedAt: T + 3, durationMs: 5 }),
      span('b2', 'b', { startedAt: T + 4, durationMs: 5 }),
    ]);
    expect(s?.slowest_path.map((x) => x.span_id)).toEqual(['root', 'b', 'b1']);
    expect(s?.duration_ms).toBe(100);
  });

  it('uses the earliest detached span as root when none has no parent, and counts orphans', () => {
    const s = summarizeTrace('t', [
      span('x', 'missing', { startedAt: T + 5 }),
      span('y', 'gone', { startedAt: T + 1 }),
      span('z', 'y', { startedAt: T + 2 }),
    ]);
    expect(s?.root_span?.span_id).toBe('y');
    expect(s?.root_span_missing).toBe(true);
    expect(s?.orphan_span_count).toBe(1);
    expect(s?.slowest_path.map((x) => x.span_id)).toEqual(['y', 'z']);
  });

  it('reports ok spans with a null status, keeps microseconds and survives a parent cycle', () => {
    const s = summarizeTrace('t', [
      span('root', null, { durationMs: 0.0421, status: 'ok' }),
      span('c1', 'c2', { startedAt: T + 1 }),
      span('c2', 'c1', { startedAt: T + 2, status: 'error', serviceName: 'db' }),
    ]);
    expect(s?.root_span?.status).toBeNull();
    expect(s?.error_spans.map((x) => x.span_id)).toEqual(['c2']);
    expect(s?.services).toEqual([
      { service_name: 'web', span_count: 2, error_span_count: 0 },
      { service_name: 'db', span_count: 1, error_span_count: 1 },
    ]);
    expect(s?.duration_ms).toBe(12);
    const tiny = summarizeTrace('t', [span('only', null, { durationMs: 0.0421 })]);
    expect(tiny?.duration_ms).toBe(0.042);
  });
});
