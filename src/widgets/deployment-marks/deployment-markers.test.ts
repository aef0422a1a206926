import { describe, expect, it } from 'vitest';
import type { Deployment } from '../../api/queries/releases';
import {
  bucketPlacement,
  deploymentMarkers,
  deploymentReadOf,
  deploymentsInScope,
  releaseLinkOf,
} from './deployment-markers';

const B0 = '2026-11-20T12:00:00.000Z';
const B1 = '2026-11-20T12:15:00.000Z';
const B2 = '2026-11-20T12:30:00.000Z';
const B3 = '2026-11-20T12:45:00.000Z';
const P1 = '00000000-0000-4000-8000-000000000001';
const P2 = '00000000-0000-4000-8000-000000000002';

const deployment = (over: Partial<Deployment>): Deployment => ({
  deployment_id: 'd1',
  project_id: P1,
  release: 'web@1.0.1',
  environment: 'production',
  service_name: 'web',
  status: 'succeeded',
  started_at: B0,
  finished_at: B1,
  commit_sha: null,
  created_at: B1,
  ...over,
});

describe('deploymentMarkers', () => {
  const domain = [Date.parse(B0), Date.parse(B3)] as const;

  it('places one marker per deployment at its finish, oldest first', () => {
    const markers = deploymentMarkers(
      [
        deployment({ deployment_id: 'b', finished_at: B2 }),
        deployment({ deployment_id: 'a', finished_at: B1, status: 'failed' }),
      ],
      domain,
    );
    expect(markers.map((m) => [m.deployment.deployment_id, m.x, m.failed, m.clamped])).toEqual([
      ['a', Date.parse(B1), true, false],
      ['b', Date.parse(B2), false, false],
    ]);
  });

  it('clamps a finish outside the drawn range to its edge and says so', () => {
    const [m] = deploymentMarkers(
      [deployment({ finished_at: '2026-11-20T11:00:00.000Z' })],
      domain,
    );
    expect(m).toMatchObject({ x: domain[0], clamped: true });
  });

  it('keeps one marker per project and id, and skips unreadable times', () => {
    const markers = deploymentMarkers(
      [
        deployment({}),
        deployment({}),
        deployment({ project_id: P2 }),
        deployment({ deployment_id: 'x', finished_at: 'soon' }),
      ],
      domain,
    );
    expect(markers.map((m) => m.key)).toEqual([`${P1}/d1`, `${P2}/d1`]);
  });

  it('links to the release page with the deployment highlighted', () => {
    const link = releaseLinkOf(deployment({ deployment_id: 'dep-1' }));
    expect(link).toEqual({
      to: '/releases/$release',
      params: { release: 'web@1.0.1' },
      search: {
        project: P1,
        projects: undefined,
        environment: 'production',
        service: 'web',
        deployment: 'dep-1',
      },
    });
  });
});

describe('a chart scope', () => {
  const all = [
    deployment({ deployment_id: 'web-prod' }),
    deployment({ deployment_id: 'web-staging', environment: 'staging' }),
    deployment({ deployment_id: 'api-prod', service_name: 'api', release: 'api@2.0.0' }),
    deployment({ deployment_id: 'other-project', project_id: P2 }),
  ];
  const ids = (scope: Parameters<typeof deploymentsInScope>[1]) =>
    deploymentsInScope(all, scope).map((d) => d.deployment_id);

  it('keeps every deployment of the readable projects when nothing narrows it', () => {
    expect(ids({})).toEqual(['web-prod', 'web-staging', 'api-prod', 'other-project']);
  });

  it('keeps the chart’s projects only', () => {
    expect(ids({ projectIds: [P2] })).toEqual(['other-project']);
    expect(ids({ projectIds: [P1, P2] })).toHaveLength(4);
    expect(ids({ projectIds: [] })).toEqual([]);
  });

  it('keeps the chart’s service, release and environment when it is for one', () => {
    expect(ids({ serviceName: 'api' })).toEqual(['api-prod']);
    expect(ids({ release: 'web@1.0.1', environment: 'production' })).toEqual([
      'web-prod',
      'other-project',
    ]);
    expect(ids({ projectIds: [P1], serviceName: 'web', environment: 'staging' })).toEqual([
      'web-staging',
    ]);
  });

  it('reads one project by its id, a set or every project without one', () => {
    expect(deploymentReadOf({ since: '24h' }, { projectIds: [P1] })).toEqual({
      since: '24h',
      project_id: P1,
    });
    expect(deploymentReadOf({ since: B0, until: B3 }, { projectIds: [P1, P2] })).toEqual({
      since: B0,
      until: B3,
    });
    expect(deploymentReadOf({ since: '7d' }, {})).toEqual({ since: '7d' });
  });
});

describe('bucketPlacement', () => {
  it('puts a marker on the bar of the bucket that holds it', () => {
    const buckets = [
      { start: Date.parse('2026-11-16T00:00:00.000Z'), label: '16 Nov' },
      { start: Date.parse('2026-11-23T00:00:00.000Z'), label: '23 Nov' },
    ];
    const place = bucketPlacement(buckets);
    const [inFirst, atSecond, later, before] = deploymentMarkers(
      [
        deployment({ deployment_id: 'a', finished_at: '2026-11-22T23:59:59.000Z' }),
        deployment({ deployment_id: 'b', finished_at: '2026-11-23T00:00:00.000Z' }),
        deployment({ deployment_id: 'c', finished_at: '2026-11-26T10:00:00.000Z' }),
        deployment({ deployment_id: 'd', finished_at: '2026-11-01T00:00:00.000Z' }),
      ],
      [Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY],
    ).sort((x, y) => (x.deployment.deployment_id < y.deployment.deployment_id ? -1 : 1));
    expect([inFirst, atSecond, later, before].map((m) => m && place(m))).toEqual([
      '16 Nov',
      '23 Nov',
      '23 Nov',
      undefined,
    ]);
  });
});
