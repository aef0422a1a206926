import { describe, expect, it } from 'vitest';
import { emptyUsage, exceededLimit, usagePeriod, utcDay } from './usage';

const quotas = { issue_events: 10, trace_spans: 100, log_bytes: 1000, metric_bytes: 500 };

describe('exceededLimit', () => {
  it('lets a batch through that fits every limit', () => {
    const added = emptyUsage();
    added.issues.events = 10;
    expect(exceededLimit(emptyUsage(), added, quotas)).toBeNull();
  });

  it('names the limit a batch would pass', () => {
    const current = emptyUsage();
    current.logs.bytes = 900;
    const added = emptyUsage();
    added.logs.bytes = 101;
    expect(exceededLimit(current, added, quotas)).toBe('log_bytes');
  });

  it('does not block a stream whose own limit still has room', () => {
    const current = emptyUsage();
    current.logs.bytes = 1000;
    const added = emptyUsage();
    added.issues.events = 1;
    expect(exceededLimit(current, added, quotas)).toBeNull();
  });

  it('counts spans against trace_spans and metric bytes against metric_bytes', () => {
    const current = emptyUsage();
    current.traces.events = 100;
    current.metrics.bytes = 500;
    const spans = emptyUsage();
    spans.traces.events = 1;
    const metrics = emptyUsage();
    metrics.metrics.bytes = 1;
    expect(exceededLimit(current, spans, quotas)).toBe('trace_spans');
    expect(exceededLimit(current, metrics, quotas)).toBe('metric_bytes');
  });
});

describe('periods', () => {
  it('is the UTC calendar month, end exclusive', () => {
    const p = usagePeriod(Date.parse('2026-11-22T13:00:00Z'));
    expect(new Date(p.start).toISOString()).toBe('2026-11-01T00:00:00.000Z');
    expect(new Date(p.end).toISOString()).toBe('2026-12-01T00:00:00.000Z');
    const dec = usagePeriod(Date.parse('2026-12-31T23:59:59.999Z'));
    expect(new Date(dec.end).toISOString()).toBe('2027-01-01T00:00:00.000Z');
  });

  it('buckets by UTC day', () => {
    expect(new Date(utcDay(Date.parse('2026-11-22T23:59:59.999Z'))).toISOString()).toBe(
      '2026-11-22T00:00:00.000Z',
    );
  });
});
