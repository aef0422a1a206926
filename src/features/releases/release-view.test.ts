import { describe, expect, it } from 'vitest';
import { deployment, row } from './fixtures.test-data';
import {
  deploymentDurationMs,
  nextSection,
  releaseRowKey,
  rowCounts,
  sameRelease,
  traceHealthView,
} from './release-view';

describe('traceHealthView', () => {
  it('says "no traces" for unknown health', () => {
    expect(traceHealthView(row().trace_health)).toEqual({
      tone: 'none',
      short: 'No traces',
      text: 'No traces',
    });
  });

  it('words the share of traces with an error span, never an error rate', () => {
    const view = traceHealthView({
      status: 'errors_observed',
      trace_count: 1240,
      error_trace_count: 40,
      error_rate_basis_points: 323,
    });
    expect(view.tone).toBe('error');
    expect(view.short).toBe('3.2%');
    expect(view.text).toBe('3.2% of 1,240 traces had an error span (40 with errors)');
    expect(view.text).not.toMatch(/error rate/i);
    expect(
      traceHealthView({
        status: 'no_errors_observed',
        trace_count: 1,
        error_trace_count: 0,
        error_rate_basis_points: 0,
      }),
    ).toEqual({ tone: 'ok', short: '0%', text: '0% of 1 trace had an error span' });
  });
});

describe('nextSection', () => {
  it('follows only the known pairs', () => {
    expect(nextSection({ code: 'inspect_release_traces', target: 'trace_explorer' })).toBe(
      'traces',
    );
    expect(nextSection({ code: 'review_release_telemetry', target: 'telemetry_reads' })).toBe(
      'none',
    );
    expect(nextSection({ code: 'inspect_release_traces', target: 'telemetry_logs' })).toBeNull();
    expect(nextSection({ code: 'something_new' })).toBeNull();
  });
});

describe('row identity and counts', () => {
  it('keys rows by all four fields', () => {
    expect(releaseRowKey(row())).not.toBe(releaseRowKey(row({ environment: 'staging' })));
    expect(sameRelease(row(), row({ issue_count: 3 }))).toBe(true);
    expect(sameRelease(row(), row({ service_name: 'web' }))).toBe(false);
  });

  it('lists the counts in the spec order', () => {
    expect(rowCounts(row({ issue_count: 2, metric_count: 5 })).map((c) => c.value)).toEqual([
      2, 0, 0, 0, 5,
    ]);
  });

  it('measures a deployment', () => {
    expect(deploymentDurationMs(deployment())).toBe(300_000);
    expect(deploymentDurationMs({ started_at: '2026-11-01T00:00:00Z', finished_at: 'nope' })).toBe(
      0,
    );
  });
});
