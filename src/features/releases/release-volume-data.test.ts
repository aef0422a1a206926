import { describe, expect, it } from 'vitest';
import type { Deployment } from '../../api/queries/releases';
import { deploymentsInScope } from '../../widgets/deployment-marks/deployment-markers';
import { volumeChartData } from '../../widgets/time-series/volume-chart-data';
import { serviceTimeline } from './deployment-match';
import { isEmptyVolume, releaseDeploymentScope, releaseVolumeParams } from './release-volume-data';

const P1 = '00000000-0000-4000-8000-000000000001';
const P2 = '00000000-0000-4000-8000-000000000002';
const row = {
  project_id: P1,
  release: 'web@1.1.0',
  environment: 'production',
  service_name: 'web',
};

const deployment = (over: Partial<Deployment>): Deployment => ({
  deployment_id: 'd1',
  project_id: P1,
  release: 'web@1.1.0',
  environment: 'production',
  service_name: 'web',
  status: 'succeeded',
  started_at: '2026-11-20T12:00:00.000Z',
  finished_at: '2026-11-20T12:05:00.000Z',
  commit_sha: null,
  created_at: '2026-11-20T12:05:00.000Z',
  ...over,
});

describe('releaseVolumeParams', () => {
  it('reads the row’s project filtered to its release, environment and service', () => {
    expect(releaseVolumeParams(row, { since: '24h' }, '1h')).toEqual({
      since: '24h',
      project_id: P1,
      interval: '1h',
      service_name: 'web',
      release: 'web@1.1.0',
      environment: 'production',
    });
    expect(
      releaseVolumeParams(
        row,
        { since: '2026-11-20T00:00:00.000Z', until: '2026-11-21T00:00:00.000Z' },
        '1h',
      ),
    ).toMatchObject({ since: '2026-11-20T00:00:00.000Z', until: '2026-11-21T00:00:00.000Z' });
  });
});

describe('releaseDeploymentScope', () => {
  const all = [
    deployment({ deployment_id: 'this-ok' }),
    deployment({ deployment_id: 'this-failed', status: 'failed' }),
    deployment({ deployment_id: 'older-release', release: 'web@1.0.0' }),
    deployment({ deployment_id: 'staging', environment: 'staging' }),
    deployment({ deployment_id: 'other-service', service_name: 'api' }),
    deployment({ deployment_id: 'other-project', project_id: P2 }),
  ];

  it('marks exactly the timeline’s entries of this release', () => {
    const marked = deploymentsInScope(all, releaseDeploymentScope(row)).map((d) => d.deployment_id);
    const timeline = serviceTimeline(row, all)
      .filter((d) => d.release === row.release)
      .map((d) => d.deployment_id);
    expect(marked.sort()).toEqual(timeline.sort());
    expect(marked).toEqual(['this-failed', 'this-ok']);
  });
});

describe('isEmptyVolume', () => {
  const summary = (logs: number[]) => {
    const zero = { events: logs.map(() => 0), bytes: logs.map(() => 0) };
    return volumeChartData(
      {
        schema_version: 1,
        interval: '15m',
        bucket_seconds: 900,
        since: '2026-11-20T12:00:00.000Z',
        until: '2026-11-20T12:30:00.000Z',
        buckets: ['2026-11-20T12:00:00.000Z', '2026-11-20T12:15:00.000Z'],
        streams: {
          issues: zero,
          logs: { events: logs, bytes: logs },
          traces: zero,
          actions: zero,
          metrics: zero,
        },
      },
      ['logs'],
    );
  };

  it('is empty only when no stream counted anything in the range', () => {
    expect(isEmptyVolume(summary([0, 0]))).toBe(true);
    expect(isEmptyVolume(summary([0, 2]))).toBe(false);
  });
});
