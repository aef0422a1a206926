import { describe, expect, it } from 'vitest';
import { analyticsReads } from './analytics-reads';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const NOW = Date.parse('2026-11-22T12:00:00Z');

describe('analyticsReads', () => {
  it('asks for a project when the scope is not one and none is picked', () => {
    expect(analyticsReads({ since: '7d' }, [A, B], NOW)).toEqual({ kind: 'pick-project' });
    expect(analyticsReads({ projects: `${A},${B}` }, [A, B], NOW)).toEqual({
      kind: 'pick-project',
    });
  });

  it('reads the header’s one project, or the page’s pick when readable', () => {
    const one = analyticsReads({ project: A, since: '7d' }, [A, B], NOW);
    expect(one.kind === 'read' && one.overview).toEqual({
      project_id: A,
      since: '7d',
      top_limit: 10,
    });
    const picked = analyticsReads({ analytics_project: B }, [A, B], NOW);
    expect(picked.kind === 'read' && picked.project).toBe(B);
    expect(analyticsReads({ analytics_project: B }, [A], NOW)).toEqual({ kind: 'pick-project' });
  });

  it('sends nothing for a range over 31 days and says why', () => {
    const reads = analyticsReads(
      { project: A, since: '2026-09-01T00:00:00Z', until: '2026-10-15T00:00:00Z' },
      [A],
      NOW,
    );
    expect(reads.kind).toBe('range-too-long');
    expect(reads.kind === 'range-too-long' && reads.message).toMatch(
      /44 days; analytics read at most 31 days/,
    );
  });

  it('maps the page’s actions to the service’s matchers and defaults', () => {
    const reads = analyticsReads(
      {
        project: A,
        since: '24h',
        retention_period: 'week',
        retention_start: { kind: 'page_view', name: '/signup' },
        paths_start: { kind: 'interaction', name: 'add_to_cart' },
        paths_depth: 4,
        lifecycle_event: { kind: 'interaction', name: 'Search' },
      },
      [A],
      NOW,
    );
    if (reads.kind !== 'read') throw new Error('expected reads');
    expect(reads.retention).toEqual({
      project_id: A,
      since: '24h',
      period: 'week',
      start_event: { kind: 'page_view', event_name: '/signup' },
    });
    expect(reads.paths).toEqual({
      project_id: A,
      since: '24h',
      analysis_unit: 'session',
      depth: 4,
      limit: 10,
      start_event: { kind: 'interaction', event_name: 'add_to_cart' },
    });
    expect(reads.lifecycle).toEqual({
      project_id: A,
      since: '24h',
      period: 'day',
      event: { kind: 'interaction', event_name: 'Search' },
    });
  });
});
