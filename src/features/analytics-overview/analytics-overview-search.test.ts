import { describe, expect, it } from 'vitest';
import { analyticsOverviewSearchSchema } from './analytics-overview-search';

const PROJECT = '0b6f8a52-3c1d-4e0f-9a7b-2d5c8e1f4a90';
const parse = (input: Record<string, unknown>) => analyticsOverviewSearchSchema.parse(input);

describe('analyticsOverviewSearchSchema', () => {
  it('keeps valid values', () => {
    expect(
      parse({
        analytics_project: PROJECT,
        retention_period: 'week',
        retention_start: { kind: 'page_view', name: '/pricing' },
        retention_return: { kind: 'interaction', name: 'checkout' },
        paths_start: { kind: 'screen_view', name: 'Home' },
        paths_depth: 5,
        paths_unit: 'identified_user',
        lifecycle_period: 'week',
        lifecycle_event: { kind: 'interaction', name: 'Search' },
      }),
    ).toEqual({
      lifecycle_period: 'week',
      lifecycle_event: { kind: 'interaction', name: 'Search' },
      analytics_project: PROJECT,
      retention_period: 'week',
      retention_start: { kind: 'page_view', name: '/pricing' },
      retention_return: { kind: 'interaction', name: 'checkout' },
      paths_start: { kind: 'screen_view', name: 'Home' },
      paths_depth: 5,
      paths_unit: 'identified_user',
    });
  });

  it('drops each unreadable value on its own and keeps the rest', () => {
    expect(
      parse({
        analytics_project: 'not-a-uuid',
        retention_period: 'month',
        retention_start: { kind: 'click', name: 'x' },
        retention_return: { kind: 'interaction', name: '   ' },
        paths_start: 'checkout',
        paths_depth: 6,
        paths_unit: 'user',
        lifecycle_period: 'hour',
        lifecycle_event: { kind: 'page_view' },
      }),
    ).toEqual({});
    expect(parse({ paths_depth: 0, paths_unit: 'session' })).toEqual({ paths_unit: 'session' });
    expect(parse({ paths_depth: 2.5, retention_period: 'day' })).toEqual({
      retention_period: 'day',
    });
  });

  it('drops an action whose name is longer than the service takes, and trims the name', () => {
    expect(parse({ paths_start: { kind: 'interaction', name: 'x'.repeat(257) } })).toEqual({});
    expect(parse({ paths_start: { kind: 'interaction', name: ' buy ' } })).toEqual({
      paths_start: { kind: 'interaction', name: 'buy' },
    });
  });

  it('ignores keys it does not own', () => {
    expect(parse({ since: '7d', steps: [] })).toEqual({});
  });
});
