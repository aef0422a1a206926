import { describe, expect, it } from 'vitest';
import { latestDeploymentOf, latestDeploymentsByRow, serviceTimeline } from './deployment-match';
import { deployment, P2, row } from './fixtures.test-data';
import { releaseRowKey } from './release-view';

describe('latestDeploymentOf', () => {
  it('matches project, release, environment and service, latest finish first', () => {
    const older = deployment({ deployment_id: 'a', finished_at: '2026-11-01T00:05:00Z' });
    const newer = deployment({
      deployment_id: 'b',
      status: 'failed',
      finished_at: '2026-11-03T00:05:00Z',
    });
    const others = [
      deployment({ deployment_id: 'c', project_id: P2, finished_at: '2026-11-09T00:00:00Z' }),
      deployment({ deployment_id: 'd', release: 'api@2', finished_at: '2026-11-09T00:00:00Z' }),
      deployment({
        deployment_id: 'e',
        environment: 'staging',
        finished_at: '2026-11-09T00:00:00Z',
      }),
      deployment({ deployment_id: 'f', service_name: 'web', finished_at: '2026-11-09T00:00:00Z' }),
    ];
    expect(latestDeploymentOf(row(), [older, ...others, newer])?.deployment_id).toBe('b');
    expect(latestDeploymentOf(row({ release: 'api@3' }), [older, newer])).toBeNull();
  });

  it('indexes the latest deployment of every row', () => {
    const a = deployment({ deployment_id: 'a', finished_at: '2026-11-01T00:05:00Z' });
    const b = deployment({ deployment_id: 'b', finished_at: '2026-11-02T00:05:00Z' });
    const map = latestDeploymentsByRow([a, b], releaseRowKey);
    expect(map.get(releaseRowKey(row()))?.deployment_id).toBe('b');
    expect(map.size).toBe(1);
  });
});

describe('serviceTimeline', () => {
  it('keeps one service and environment of one project, newest finish first', () => {
    const a = deployment({ deployment_id: 'a', finished_at: '2026-11-01T00:05:00Z' });
    const b = deployment({
      deployment_id: 'b',
      release: 'api@2',
      finished_at: '2026-11-05T00:00:00Z',
    });
    const c = deployment({ deployment_id: 'c', environment: 'staging' });
    expect(serviceTimeline(row(), [a, c, b]).map((d) => d.deployment_id)).toEqual(['b', 'a']);
  });
});
