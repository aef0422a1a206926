import { describe, expect, it } from 'vitest';
import {
  checkMinDuration,
  clearedTraceFilters,
  listSearchOf,
  narrowingCount,
  traceDeploymentScope,
  traceFiltersOf,
  tracesSearchSchema,
} from './traces-search';

const P1 = '0f8fad5b-d9cb-469f-a165-70867728950e';
const P2 = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

describe('tracesSearchSchema', () => {
  it('keeps valid values', () => {
    expect(
      tracesSearchSchema.parse({
        status: 'error',
        service: 'checkout-api',
        release: 'checkout@2.14.0',
        environment: 'production',
        min_ms: 250,
        scale: 'linear',
      }),
    ).toEqual({
      status: 'error',
      service: 'checkout-api',
      release: 'checkout@2.14.0',
      environment: 'production',
      min_ms: 250,
      scale: 'linear',
    });
  });

  it('drops unreadable values instead of failing', () => {
    expect(
      tracesSearchSchema.parse({ status: 'failed', service: '  ', min_ms: 'slow', scale: 'log' }),
    ).toEqual({
      status: undefined,
      service: undefined,
      release: undefined,
      environment: undefined,
      min_ms: undefined,
      scale: undefined,
    });
  });

  it('keeps a numeric minimum the service would refuse, so the refusal is shown', () => {
    expect(tracesSearchSchema.parse({ min_ms: -5 }).min_ms).toBe(-5);
    expect(tracesSearchSchema.parse({ min_ms: 1.5 }).min_ms).toBe(1.5);
  });
});

describe('traceFiltersOf', () => {
  it('sends the scope, the range as the URL says it and each filter under its query key', () => {
    expect(
      traceFiltersOf(
        {
          project: P1,
          since: '7d',
          status: 'ok',
          service: 'payments',
          release: 'r1',
          environment: 'staging',
          min_ms: 0,
        },
        [P1, P2],
      ),
    ).toEqual({
      project_id: P1,
      since: '7d',
      status: 'ok',
      service_name: 'payments',
      release: 'r1',
      environment: 'staging',
      min_duration_ms: 0,
    });
  });

  it('reads every project by default and over the last 24 hours', () => {
    expect(traceFiltersOf({}, [P1, P2])).toEqual({ since: '24h' });
    expect(traceFiltersOf({ projects: `${P1},${P2}` }, [P1, P2])).toEqual({
      project_ids: `${P1},${P2}`,
      since: '24h',
    });
  });

  it('keeps an absolute since and leaves out projects the account cannot read', () => {
    expect(traceFiltersOf({ project: P2, since: '2026-11-20T10:00:00Z' }, [P1])).toEqual({
      since: '2026-11-20T10:00:00.000Z',
    });
  });

  it('does not reload the list for the chart scale', () => {
    expect(listSearchOf({ scale: 'linear', status: 'error' })).toEqual({
      scale: undefined,
      status: 'error',
    });
  });
});

describe('narrowing filters', () => {
  it('counts what narrows the list and clears it, keeping scope, range and scale', () => {
    const search = {
      project: P1,
      since: '7d',
      status: 'error' as const,
      min_ms: 0,
      service: 'a',
      scale: 'linear' as const,
    };
    expect(narrowingCount(search)).toBe(3);
    expect(narrowingCount({})).toBe(0);
    expect(clearedTraceFilters(search)).toEqual({
      project: P1,
      projects: undefined,
      since: '7d',
      until: undefined,
      scale: 'linear',
    });
  });
});

describe('checkMinDuration', () => {
  it('takes whole milliseconds, and blank as no minimum', () => {
    expect(checkMinDuration('250')).toEqual({ ok: true, value: 250 });
    expect(checkMinDuration(' 0 ')).toEqual({ ok: true, value: 0 });
    expect(checkMinDuration('')).toEqual({ ok: true, value: undefined });
  });

  it('explains what the service would refuse', () => {
    expect(checkMinDuration('-5')).toEqual({
      ok: false,
      message: expect.stringMatching(/cannot be negative/) as string,
    });
    expect(checkMinDuration('1.5')).toEqual({
      ok: false,
      message: expect.stringMatching(/whole milliseconds/) as string,
    });
    expect(checkMinDuration('2s')).toEqual({
      ok: false,
      message: expect.stringMatching(/whole number of milliseconds/) as string,
    });
    expect(checkMinDuration('1e3').ok).toBe(false);
    expect(checkMinDuration('1234567890123').ok).toBe(false);
  });
});

describe('traceDeploymentScope', () => {
  it('marks the deployments of the list’s projects, service, release and environment', () => {
    expect(
      traceDeploymentScope({
        project_id: P1,
        since: '24h',
        service_name: 'checkout-api',
        environment: 'production',
      }),
    ).toEqual({
      projectIds: [P1],
      serviceName: 'checkout-api',
      release: undefined,
      environment: 'production',
    });
    expect(traceDeploymentScope({ project_ids: `${P1},${P2}`, since: '7d' }).projectIds).toEqual([
      P1,
      P2,
    ]);
    expect(traceDeploymentScope({ since: '7d' }).projectIds).toBeUndefined();
  });
});
