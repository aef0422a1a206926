import { describe, expect, it } from 'vitest';
import { metricsReads } from './metrics-reads';
import { chartRangeOf, explorerProject, metricsSearchSchema } from './metrics-search';

const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';
const C = '00000000-0000-4000-8000-00000000000c';
const now = Date.parse('2026-11-22T12:00:00.000Z');

describe('metricsReads', () => {
  it('reads volume and deployments of every project when the scope is all', () => {
    const reads = metricsReads({}, [A, B], now);
    expect(reads.window).toMatchObject({ ok: true, interval: '15m' });
    expect(reads.volume.reads).toEqual([{ since: '24h', interval: 'auto' }]);
    expect(reads.volume.scope).toBe('all');
    expect(reads.explorer.project).toBeNull();
    expect(reads.explorer.series).toBeNull();
  });

  it('reads one project for everything when the scope is one project', () => {
    const reads = metricsReads({ project: A, metric: 'm', group_by: 'release' }, [A, B], now);
    expect(reads.volume.reads).toEqual([{ since: '24h', project_id: A, interval: 'auto' }]);
    expect(reads.explorer.series).toEqual({
      since: '24h',
      project_id: A,
      name: 'm',
      interval: 'auto',
      group_by: 'release',
      series_limit: 10,
    });
    expect(reads.explorer.deployments).toEqual({ since: '24h', project_id: A });
  });

  it('adds a selected set up project by project and keeps its deployments only', () => {
    const reads = metricsReads({ projects: `${A},${B}` }, [A, B, C], now);
    expect(reads.volume.scope).toBe('set');
    expect(reads.volume.reads.map((r) => r.project_id)).toEqual([A, B]);
    expect(reads.volume.deploymentScope).toEqual({ projectIds: [A, B] });
  });

  it('sends no chart read for a window the service would refuse', () => {
    const reads = metricsReads({ project: A, metric: 'm', interval: '1m' }, [A], now);
    expect(reads.window).toMatchObject({ ok: false, reason: 'buckets' });
    expect(reads.volume.reads).toEqual([]);
    expect(reads.explorer.series).toBeNull();
    // Names and deployments are still read: the form stays usable.
    expect(reads.explorer.names).not.toBeNull();
  });

  it('uses the picked project of the explorer when the scope is not one project', () => {
    const reads = metricsReads({ metric_project: B, metric: 'm' }, [A, B], now);
    expect(reads.explorer.project).toBe(B);
    expect(reads.volume.scope).toBe('all');
  });
});

describe('explorerProject', () => {
  it('refuses a picked project outside the selected set or unreadable', () => {
    expect(explorerProject({ projects: `${A},${B}`, metric_project: C }, [A, B, C])).toBeNull();
    expect(explorerProject({ metric_project: C }, [A, B])).toBeNull();
    expect(explorerProject({ project: A, metric_project: B }, [A, B])).toBe(A);
  });
});

describe('metricsSearchSchema', () => {
  it('drops values the page cannot use', () => {
    expect(
      metricsSearchSchema.parse({
        series_limit: 50,
        interval: '2h',
        group_by: 'user',
        metric_project: 'x',
      }),
    ).toEqual({});
    expect(
      metricsSearchSchema.parse({ series_limit: 5, interval: '1h', group_by: 'release' }),
    ).toEqual({
      series_limit: 5,
      interval: '1h',
      group_by: 'release',
    });
  });
});

describe('chartRangeOf', () => {
  it('keeps compact ranges compact and absolute ones absolute', () => {
    expect(chartRangeOf({})).toEqual({ since: '24h' });
    expect(chartRangeOf({ since: '7d' })).toEqual({ since: '7d' });
    expect(chartRangeOf({ since: '2026-11-20T00:00:00Z', until: '2026-11-21T00:00:00Z' })).toEqual({
      since: '2026-11-20T00:00:00.000Z',
      until: '2026-11-21T00:00:00.000Z',
    });
  });
});
