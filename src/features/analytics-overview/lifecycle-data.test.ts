import { describe, expect, it } from 'vitest';
import type { Lifecycle } from '../../api/queries/analytics';
import { lifecycleChartData, symmetricTicks } from './lifecycle-data';

const lifecycle = (periods: Lifecycle['periods']): Lifecycle => ({
  schema_version: 1,
  query: {
    project_id: '11111111-1111-4111-8111-111111111111',
    since: '2026-11-20T00:00:00.000Z',
    until: '2026-11-22T00:00:00.000Z',
    service_name: null,
    release: null,
    environment: null,
    period: 'day',
    event: null,
  },
  period_seconds: 86_400,
  summary: {
    active_units: 0,
    new_units: 0,
    returning_units: 0,
    resurrecting_units: 0,
    dormant_units: 0,
  },
  periods,
  coverage: { events: 0, matching_events: 0, limitations: [] },
});

describe('lifecycleChartData', () => {
  it('draws dormant below zero and keeps the other states as sent', () => {
    const data = lifecycleChartData(
      lifecycle([
        {
          start: '2026-11-20T00:00:00.000Z',
          active: 5,
          new: 5,
          returning: 0,
          resurrecting: 0,
          dormant: 0,
        },
        {
          start: '2026-11-21T00:00:00.000Z',
          active: 3,
          new: 1,
          returning: 2,
          resurrecting: 0,
          dormant: 3,
        },
      ]),
    );
    expect(data.rows[0]).toMatchObject({ label: '20 Nov', new: 5, dormant: 0 });
    expect(data.rows[1]).toMatchObject({ returning: 2, dormant: -3, active: 3 });
    expect(data.extent).toBe(5);
  });

  it('has no extent without periods', () => {
    expect(lifecycleChartData(lifecycle([]))).toEqual({ rows: [], extent: 0 });
  });
});

describe('symmetricTicks', () => {
  it('gives round ticks on both sides of zero', () => {
    expect(symmetricTicks(308)).toEqual([-400, -200, 0, 200, 400]);
    expect(symmetricTicks(3)).toEqual([-3, -2, -1, 0, 1, 2, 3]);
    expect(symmetricTicks(7)).toEqual([-10, -5, 0, 5, 10]);
    expect(symmetricTicks(0)).toEqual([-1, 0, 1]);
  });
});
