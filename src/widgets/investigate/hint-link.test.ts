import { describe, expect, it } from 'vitest';
import { hintLink } from './hint-link';

const ISSUE = '0b9c6f3e-2d1a-4f5e-8a7b-1c2d3e4f5a6b';
const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';

describe('hintLink', () => {
  it('links issue reads to the issue page', () => {
    expect(
      hintLink({
        code: 'investigate_issue',
        target: 'issue_investigation',
        path: `/api/telemetry/issues/${ISSUE}/investigation?selection=recommended`,
      }),
    ).toEqual({ to: '/issues/$issueId', params: { issueId: ISSUE }, label: 'Open the issue' });
    expect(
      hintLink({
        code: 'list_occurrences',
        target: 'x',
        path: `/api/telemetry/issues/${ISSUE}/events`,
      })?.label,
    ).toBe('Open the issue’s occurrences');
  });

  it('links trace reads to the trace page', () => {
    expect(
      hintLink({
        code: 'inspect_trace',
        target: 'trace_investigation',
        path: `/api/telemetry/traces/${TRACE}/investigation`,
      }),
    ).toEqual({ to: '/traces/$traceId', params: { traceId: TRACE }, label: 'Open the trace' });
  });

  it('gives nothing for reads without a page or ids of another shape', () => {
    expect(
      hintLink({ code: 'x', target: 'y', path: '/api/telemetry/metrics/investigation' }),
    ).toBeNull();
    expect(
      hintLink({ code: 'x', target: 'y', path: '/api/telemetry/traces/<b>x</b>/investigation' }),
    ).toBeNull();
    expect(
      hintLink({ code: 'x', target: 'y', path: 'https://evil.example/api/telemetry/issues' }),
    ).toBeNull();
  });
});
