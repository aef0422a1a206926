import { describe, expect, it } from 'vitest';
import { P1, P2 } from './fixtures.test-data';
import { deploymentScopeOf } from './release-list-data';
import { releaseRowFiltersOf, releaseSearchSchema, rowSearchOf } from './release-search';
import {
  clearedReleaseFilters,
  narrowingCount,
  releaseFiltersOf,
  releasesSearchSchema,
} from './releases-search';

describe('releasesSearchSchema', () => {
  it('keeps exact filters and drops blank ones', () => {
    expect(
      releasesSearchSchema.parse({ service: 'api', release: 'api@1', environment: ' ' }),
    ).toEqual({ service: 'api', release: 'api@1', environment: undefined });
  });
});

describe('releaseSearchSchema', () => {
  it('keeps a caller-chosen deployment id and drops what the service would refuse', () => {
    expect(
      releaseSearchSchema.parse({
        environment: 'production',
        service: 'api',
        deployment: 'dep-1.a_b~c',
      }),
    ).toEqual({ environment: 'production', service: 'api', deployment: 'dep-1.a_b~c' });
    expect(releaseSearchSchema.parse({ deployment: '-x' }).deployment).toBeUndefined();
    expect(releaseSearchSchema.parse({ deployment: 'a/b' }).deployment).toBeUndefined();
  });
});

describe('releaseFiltersOf', () => {
  it('sends the scope, since and exact filters; never until', () => {
    expect(
      releaseFiltersOf(
        { project: P1, since: '7d', service: 'api', release: 'r', environment: 'e' },
        [P1, P2],
      ),
    ).toEqual({
      project_id: P1,
      since: '7d',
      service_name: 'api',
      release: 'r',
      environment: 'e',
    });
    expect(releaseFiltersOf({}, [P1])).toEqual({ since: '24h' });
    expect(
      releaseFiltersOf(
        { since: '2026-11-20T00:00:00Z', until: '2026-11-21T00:00:00Z', projects: `${P1},${P2}` },
        [P1, P2],
      ),
    ).toEqual({ project_ids: `${P1},${P2}`, since: '2026-11-20T00:00:00.000Z' });
  });

  it('counts and clears the narrowing filters', () => {
    const search = { project: P1, since: '7d', service: 'api', environment: 'e' };
    expect(narrowingCount(search)).toBe(2);
    expect(clearedReleaseFilters(search)).toEqual({
      project: P1,
      projects: undefined,
      since: '7d',
      until: undefined,
    });
  });
});

describe('releaseRowFiltersOf', () => {
  it('reads the path release in the layout scope with the environment and service', () => {
    expect(
      releaseRowFiltersOf('api@2', { project: P1, environment: 'production', service: 'api' }, [
        P1,
      ]),
    ).toEqual({
      project_id: P1,
      release: 'api@2',
      environment: 'production',
      service_name: 'api',
    });
    expect(releaseRowFiltersOf('api@2', { project: P2, deployment: 'd1' }, [P1])).toEqual({
      release: 'api@2',
    });
    expect(rowSearchOf({ project: P1, service: 's', deployment: 'd', since: '7d' })).toEqual({
      project: P1,
      projects: undefined,
      environment: undefined,
      service: 's',
    });
  });

  it('reads one project’s deployments for a one-project list', () => {
    expect(deploymentScopeOf({ project_id: P1, since: '24h' })).toEqual({ project_id: P1 });
    expect(deploymentScopeOf({ project_ids: `${P1},${P2}`, since: '24h' })).toEqual({});
  });
});
