import { describe, expect, it } from 'vitest';
import type { Retention } from '../../api/queries/analytics';
import { cohortStartLabel, offsetLabel, retentionGrid, shadeLevel } from './retention-grid';

const retention = (cohorts: Retention['cohorts']): Retention => ({
  schema_version: 1,
  query: {
    project_id: '11111111-1111-4111-8111-111111111111',
    since: '2026-11-16T00:00:00.000Z',
    until: '2026-11-19T00:00:00.000Z',
    service_name: null,
    release: null,
    environment: null,
    period: 'day',
    start_event: null,
    return_event: null,
  },
  period_seconds: 86_400,
  summary: { units: 0, returning_units: 0, return_rate: 0 },
  cohorts,
  coverage: { events: 0, start_events: 0, return_events: 0, limitations: [] },
});

describe('shadeLevel', () => {
  it('steps by band and keeps any return visible', () => {
    expect(shadeLevel(0)).toBe(0);
    expect(shadeLevel(0.001)).toBe(1);
    expect(shadeLevel(0.05)).toBe(2);
    expect(shadeLevel(0.2)).toBe(3);
    expect(shadeLevel(0.3)).toBe(4);
    expect(shadeLevel(0.5)).toBe(5);
    expect(shadeLevel(1)).toBe(5);
  });
});

describe('retentionGrid', () => {
  it('gives the size at offset 0, rates after, and nothing past the range', () => {
    const grid = retentionGrid(
      retention([
        {
          start: '2026-11-16T00:00:00.000Z',
          units: 40,
          retained: [40, 10, 2],
          rates: [1, 0.25, 0.05],
        },
        { start: '2026-11-17T00:00:00.000Z', units: 0, retained: [0, 0], rates: [0, 0] },
        { start: '2026-11-18T00:00:00.000Z', units: 3, retained: [3], rates: [1] },
      ]),
      'day',
    );
    expect(grid.columns).toBe(3);
    const [first, empty, last] = grid.rows;
    expect(first?.startLabel).toBe('16 Nov');
    expect(first?.cells[0]).toEqual({
      kind: 'size',
      text: '40',
      label: 'Cohort of 16 Nov: 40 users',
    });
    expect(first?.cells[1]).toEqual({
      kind: 'rate',
      level: 3,
      text: '25.0%',
      label: '25.0%: 10 of 40 users returned in day 1',
    });
    expect(empty?.cells[1]).toMatchObject({ kind: 'empty', text: '–' });
    expect(empty?.cells[2]).toEqual({ kind: 'future' });
    expect(last?.cells.map((c) => c.kind)).toEqual(['size', 'future', 'future']);
  });

  it('has no columns without cohorts', () => {
    expect(retentionGrid(retention([]), 'week')).toEqual({ columns: 0, rows: [] });
  });
});

describe('labels', () => {
  it('names offsets and cohort starts in UTC', () => {
    expect(offsetLabel('week', 2)).toBe('Week 2');
    expect(cohortStartLabel('2026-11-16T21:20:05.000Z')).toBe('16 Nov 21:20');
  });
});
