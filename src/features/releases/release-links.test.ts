import { describe, expect, it } from 'vitest';
import { P1, row } from './fixtures.test-data';
import { releaseListSearches, releaseReadFilters } from './release-links';

describe('release links', () => {
  const r = row({ release: 'api@2', first_seen_at: '2026-11-03T01:00:00.000Z' });

  it('links each list page with the exact row filters, from the first event on', () => {
    const links = releaseListSearches(r);
    expect(links.issues).toEqual({
      project: P1,
      projects: undefined,
      since: '2026-11-03T01:00:00.000Z',
      until: undefined,
      release: 'api@2',
      environment: 'production',
      service: 'api',
      status: 'all',
    });
    expect(links.logs).not.toHaveProperty('status');
  });

  it('reads with the same exact filters', () => {
    expect(releaseReadFilters(r)).toEqual({
      project_id: P1,
      since: '2026-11-03T01:00:00.000Z',
      release: 'api@2',
      environment: 'production',
      service_name: 'api',
    });
  });
});
