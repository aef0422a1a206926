import { describe, expect, it } from 'vitest';
import { traceLogsSearch } from './trace-links';

describe('traceLogsSearch', () => {
  it('names the exact trace and a range around it', () => {
    const start = Date.parse('2026-11-20T14:00:00.000Z');
    expect(traceLogsSearch('a'.repeat(32), 'p1', start, 1500.4)).toEqual({
      trace_id: 'a'.repeat(32),
      project: 'p1',
      projects: undefined,
      since: '2026-11-20T13:45:00.000Z',
      until: '2026-11-20T14:15:01.501Z',
    });
  });
});
