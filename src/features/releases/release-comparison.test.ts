import { describe, expect, it } from 'vitest';
import { deployment, row } from './fixtures.test-data';
import { errorShareChange, newIssues, previousRelease, releaseStart } from './release-comparison';

const v1 = row({
  release: 'api@1',
  first_seen_at: '2026-11-01T00:00:00Z',
  last_seen_at: '2026-11-03T00:00:00Z',
});
const v2 = row({
  release: 'api@2',
  first_seen_at: '2026-11-03T01:00:00Z',
  last_seen_at: '2026-11-05T00:00:00Z',
});
const v3 = row({
  release: 'api@3',
  first_seen_at: '2026-11-05T01:00:00Z',
  last_seen_at: '2026-11-06T00:00:00Z',
});

describe('previousRelease', () => {
  it('uses the last succeeded deployment before this release first went out', () => {
    const deployments = [
      deployment({ deployment_id: '1', release: 'api@1', finished_at: '2026-11-01T00:00:00Z' }),
      deployment({ deployment_id: '2', release: 'api@2', finished_at: '2026-11-03T00:30:00Z' }),
      // A failed attempt of a third release does not count.
      deployment({
        deployment_id: 'x',
        release: 'api@9',
        status: 'failed',
        finished_at: '2026-11-04T00:00:00Z',
      }),
      deployment({ deployment_id: '3a', release: 'api@3', finished_at: '2026-11-05T00:30:00Z' }),
      // A redeploy of the same release later does not move the comparison.
      deployment({ deployment_id: '3b', release: 'api@3', finished_at: '2026-11-06T00:30:00Z' }),
    ];
    const prev = previousRelease(v3, [v1, v2, v3], deployments);
    expect(prev).toMatchObject({ basis: 'deployment', release: 'api@2', row: v2 });
    expect(prev?.basis === 'deployment' && prev.deployment.deployment_id).toBe('2');
  });

  it('keeps a deployed release without telemetry (no row)', () => {
    const deployments = [
      deployment({ deployment_id: '1', release: 'api@0', finished_at: '2026-10-01T00:00:00Z' }),
      deployment({ deployment_id: '2', release: 'api@1', finished_at: '2026-11-01T00:00:00Z' }),
    ];
    expect(previousRelease(v1, [v1], deployments)).toMatchObject({
      basis: 'deployment',
      release: 'api@0',
      row: null,
    });
  });

  it('falls back to activity: the latest last_seen before this first_seen', () => {
    const other = row({ ...v1, release: 'api@1b', environment: 'staging' });
    expect(previousRelease(v3, [v3, v1, v2, other], [])).toEqual({
      basis: 'activity',
      release: 'api@2',
      row: v2,
    });
    // An overlapping release is not earlier.
    const overlapping = row({ ...v2, last_seen_at: '2026-11-05T02:00:00Z' });
    expect(previousRelease(v3, [v1, overlapping], [])?.release).toBe('api@1');
    expect(previousRelease(v1, [v1, v2, v3], [])).toBeNull();
  });
});

describe('errorShareChange', () => {
  const health = (bp: number, traces = 100) => ({
    trace_health: {
      status: bp > 0 ? ('errors_observed' as const) : ('no_errors_observed' as const),
      trace_count: traces,
      error_trace_count: Math.round((bp / 10000) * traces),
      error_rate_basis_points: bp,
    },
  });

  it('gives the change in percentage points', () => {
    expect(errorShareChange(health(520), health(120))).toEqual({
      kind: 'change',
      points: 4,
      current: 520,
      previous: 120,
    });
    expect(errorShareChange(health(0), health(250))).toMatchObject({ points: -2.5 });
  });

  it('says which side has no traces', () => {
    expect(errorShareChange(row(), health(100))).toEqual({ kind: 'no-traces', which: 'current' });
    expect(errorShareChange(health(100), row())).toEqual({ kind: 'no-traces', which: 'previous' });
    expect(errorShareChange(row(), row())).toEqual({ kind: 'no-traces', which: 'both' });
  });
});

describe('newIssues', () => {
  it('keeps issues first seen within this release that the previous list does not show', () => {
    const current = [
      { id: 'new', first_seen_at: '2026-11-05T03:00:00Z' },
      { id: 'old', first_seen_at: '2026-11-02T00:00:00Z' },
      { id: 'both', first_seen_at: '2026-11-05T04:00:00Z' },
    ];
    const previous = [{ id: 'both', first_seen_at: '2026-11-05T04:00:00Z' }];
    expect(newIssues(v3.first_seen_at, current, previous).map((i) => i.id)).toEqual(['new']);
    expect(newIssues(v3.first_seen_at, current, []).map((i) => i.id)).toEqual(['new', 'both']);
  });
});

describe('releaseStart', () => {
  it('is the earliest first event of the release of this service in any environment', () => {
    const staging = row({ ...v3, environment: 'staging', first_seen_at: '2026-11-04T00:00:00Z' });
    const otherService = row({ ...v3, service_name: 'web', first_seen_at: '2026-10-01T00:00:00Z' });
    expect(releaseStart(v3, [v3, staging, otherService])).toBe('2026-11-04T00:00:00Z');
    expect(releaseStart(v3, [])).toBe(v3.first_seen_at);
  });
});
