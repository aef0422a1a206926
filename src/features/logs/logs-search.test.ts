import { describe, expect, it } from 'vitest';
import {
  clearedFilters,
  listFiltersOf,
  listSearchOf,
  logsSearchSchema,
  narrowingFilterCount,
} from './logs-search';

const P1 = '0f8fad5b-d9cb-469f-a165-70867728950e';
const P2 = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const LOG = '16fd2706-8baf-433b-82eb-8c7fada847da';

describe('logsSearchSchema', () => {
  it('keeps valid values', () => {
    const parsed = logsSearchSchema.parse({
      severity: 'error',
      status: 'ignored',
      q: 'timeout',
      filters: [{ path: '/http/status', type: 'number', operator: 'gte', value: 500 }],
      columns: ['/http/status'],
      log: LOG,
    });
    expect(parsed).toMatchObject({ severity: 'error', status: 'ignored', q: 'timeout', log: LOG });
    expect(parsed.filters).toHaveLength(1);
  });

  it('drops invalid values instead of failing', () => {
    const parsed = logsSearchSchema.parse({
      severity: 'fatal',
      status: 'gone',
      q: '   ',
      columns: ['http.status'],
      log: 'not-a-uuid',
    });
    expect(parsed).toEqual({
      severity: undefined,
      status: undefined,
      q: undefined,
      service: undefined,
      release: undefined,
      environment: undefined,
      trace_id: undefined,
      filters: undefined,
      columns: undefined,
      log: undefined,
    });
  });

  it('drops a filter set with any filter the service would refuse', () => {
    const ok = { path: '/a', type: 'number', operator: 'eq', value: 1 };
    expect(
      logsSearchSchema.parse({
        filters: [ok, { path: '/b', type: 'number', operator: 'contains', value: 1 }],
      }).filters,
    ).toBeUndefined();
    expect(logsSearchSchema.parse({ filters: [ok, ok, ok, ok, ok] }).filters).toBeUndefined();
    expect(logsSearchSchema.parse({ filters: [] }).filters).toBeUndefined();
  });
});

describe('listFiltersOf', () => {
  it('maps the URL to query values, in the readable scope', () => {
    const search = listSearchOf({
      projects: `${P1},${P2}`,
      since: '7d',
      severity: 'warning',
      status: 'active',
      q: 'slow',
      service: 'checkout-api',
      trace_id: 'abc',
      filters: [{ path: '/a', type: 'boolean', operator: 'exists' }],
      log: LOG,
      columns: ['/a'],
    });
    expect(listFiltersOf(search, [P1, P2])).toEqual({
      project_ids: `${P1},${P2}`,
      since: '7d',
      severity: 'warning',
      search: 'slow',
      service_name: 'checkout-api',
      trace_id: 'abc',
      attribute_filters: '[{"path":"/a","type":"boolean","operator":"exists"}]',
    });
    expect(listFiltersOf(search, [P1])).toMatchObject({ project_id: P1 });
  });

  it('uses the default range and keeps absolute ranges', () => {
    expect(listFiltersOf({}, [])).toEqual({ since: '24h' });
    expect(
      listFiltersOf({ since: '2026-11-20T00:00:00Z', until: '2026-11-21T00:00:00Z' }, []),
    ).toEqual({ since: '2026-11-20T00:00:00.000Z', until: '2026-11-21T00:00:00.000Z' });
  });
});

describe('narrowingFilterCount and clearedFilters', () => {
  it('counts what narrows the list and clears it, keeping scope, range and columns', () => {
    const search = {
      project: P1,
      since: '7d',
      severity: 'error' as const,
      status: 'all' as const,
      filters: [{ path: '/a', type: 'boolean' as const, operator: 'exists' as const }],
      columns: ['/a'],
    };
    expect(narrowingFilterCount(search)).toBe(3);
    expect(narrowingFilterCount({ status: 'active' })).toBe(0);
    expect(clearedFilters(search)).toEqual({
      project: P1,
      projects: undefined,
      since: '7d',
      until: undefined,
      columns: ['/a'],
    });
  });
});
