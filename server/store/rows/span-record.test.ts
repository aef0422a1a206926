import { describe, expect, it } from 'vitest';
import { spanView } from '../../views/telemetry-views';
import { spanRowJson, toSpanRecord, type SpanRow } from './span-record';

const row = (o: Partial<SpanRow> = {}): SpanRow => ({
  id: '4d1b3c9e-0000-4000-8000-000000000001',
  project_id: 'p1',
  trace_id: 'ab'.repeat(16),
  span_id: '00000000000000a1',
  parent_span_id: null,
  name: 'GET /checkout',
  operation: null,
  kind: null,
  service_name: 'api',
  environment: 'production',
  release: 'shop@1',
  started_at: Date.parse('2026-11-23T03:59:00.123Z'),
  duration_ms: 12.5,
  status: null,
  status_message: null,
  attributes: '{}',
  events: '[]',
  sdk_name: 'lookout-js',
  sdk_version: '1.0.0',
  ...o,
});

describe('a span row as the span list writes it', () => {
  it.each([
    ['a plain root span', row()],
    [
      'awkward text, an error and a child',
      row({
        parent_span_id: '00000000000000a0',
        name: 'quote " back\\slash / \n\t \u0001 \u2028 é 😀',
        operation: 'db.query',
        kind: 'client',
        status: 'error',
        status_message: 'Timeout\r\nafter "5 s"',
        duration_ms: 0.1 + 0.2,
      }),
    ],
    [
      'an ok status, odd numbers and nested attributes as stored',
      row({
        status: 'ok',
        duration_ms: 1e-7,
        attributes: JSON.stringify({ 2: 'two', b: [1, { id: 3 }], s: '\ud800 lone', n: null }),
      }),
    ],
    [
      'events with and without attributes',
      row({
        events: JSON.stringify([
          { name: 'retry', timestamp: '2026-11-23T03:59:00.123Z' },
          { name: 'ok', timestamp: '2026-11-23T03:59:01.000Z', attributes: { attempt: 2 } },
        ]),
      }),
    ],
  ])('is the span view of %s', (_name, r) => {
    expect(spanRowJson(r)).toBe(JSON.stringify(spanView(toSpanRecord(r))));
  });
});
