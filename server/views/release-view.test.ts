import { describe, expect, it } from 'vitest';
import type { ReleaseRow } from '../core/store/telemetry/releases';
import { errorBasisPoints, releaseNextAction } from './release-view';

const row = (counts: Partial<ReleaseRow>): ReleaseRow => ({
  projectId: 'p',
  release: 'r',
  environment: 'e',
  serviceName: 's',
  issueCount: 0,
  logCount: 0,
  traceSpanCount: 0,
  actionCount: 0,
  metricCount: 0,
  traceCount: 0,
  errorTraceCount: 0,
  firstSeenAt: 0,
  lastSeenAt: 0,
  ...counts,
});

describe('errorBasisPoints', () => {
  it('is the rounded share of error traces, never contradicting the status', () => {
    expect(errorBasisPoints(0, 0)).toBe(0);
    expect(errorBasisPoints(4, 0)).toBe(0);
    expect(errorBasisPoints(4, 1)).toBe(2500);
    expect(errorBasisPoints(3, 1)).toBe(3333);
    expect(errorBasisPoints(3, 2)).toBe(6667);
    expect(errorBasisPoints(2, 2)).toBe(10000);
    expect(errorBasisPoints(100_000, 1)).toBe(1);
    expect(errorBasisPoints(100_000, 99_999)).toBe(9999);
  });
});

describe('releaseNextAction', () => {
  it('names the first signal type with data in the spec order', () => {
    const all = { issueCount: 1, traceSpanCount: 1, logCount: 1, actionCount: 1, metricCount: 1 };
    expect(releaseNextAction(row(all)).code).toBe('inspect_release_issues');
    expect(releaseNextAction(row({ ...all, issueCount: 0 })).code).toBe('inspect_release_traces');
    expect(releaseNextAction(row({ logCount: 1, actionCount: 1, metricCount: 1 })).code).toBe(
      'inspect_release_logs',
    );
    expect(releaseNextAction(row({ actionCount: 1, metricCount: 1 }))).toEqual({
      code: 'inspect_release_actions',
      target: 'telemetry_actions',
    });
    expect(releaseNextAction(row({ metricCount: 1 }))).toEqual({
      code: 'inspect_release_metrics',
      target: 'telemetry_metrics',
    });
    expect(releaseNextAction(row({}))).toEqual({
      code: 'review_release_telemetry',
      target: 'telemetry_reads',
    });
  });
});
