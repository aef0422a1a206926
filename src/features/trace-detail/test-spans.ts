import type { TraceSpan } from '../../api/queries/traces';

const BASE = Date.parse('2026-11-20T14:00:00.000Z');

/** A span for tests: `id` doubles as the span id (padded to 16 hex), times in ms from a base. */
export function testSpan(
  id: string,
  parent: string | null,
  startMs: number,
  durationMs: number,
  extra: Partial<TraceSpan> = {},
): TraceSpan {
  return {
    id: `00000000-0000-4000-8000-${id.padStart(12, '0')}`,
    project_id: '11111111-1111-4111-8111-111111111111',
    trace_id: 'a'.repeat(32),
    span_id: id.padStart(16, '0'),
    parent_span_id: parent === null ? null : parent.padStart(16, '0'),
    name: `span ${id}`,
    operation: 'http.server',
    kind: 'server',
    service_name: 'api',
    environment: 'production',
    release: 'api@1.0.0',
    started_at: new Date(BASE + startMs).toISOString(),
    duration_ms: durationMs,
    status: null,
    status_message: null,
    attributes: {},
    events: [],
    sdk_name: 'test',
    sdk_version: '1',
    next_action: { code: 'read_trace' },
    ...extra,
  };
}
