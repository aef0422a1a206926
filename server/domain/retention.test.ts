import { describe, expect, it } from 'vitest';
import type { FunnelEvent } from './funnel';
import { computeRetention } from './retention';

const DAY = 86_400_000;
const e = (unit: string | null, name: string, at: number): FunnelEvent => ({
  unit,
  name,
  kind: 'page_view',
  at,
});

describe('computeRetention', () => {
  it('puts each unit in the period of its first start event and counts later returns', () => {
    const r = computeRetention(
      { since: 0, until: 3 * DAY, periodMs: DAY, start: null, ret: null },
      [
        e('a', 'Home', 10),
        e('a', 'Home', 20), // same period: not a return
        e('a', 'Home', DAY + 5),
        e('a', 'Home', 2 * DAY + 5),
        e('b', 'Home', DAY + 1),
        e('b', 'Home', 2 * DAY - 1), // still day 1
        e('c', 'Home', 2 * DAY),
        e(null, 'Home', 0), // no unit
        e('d', 'Home', 3 * DAY), // at until: outside
      ],
    );
    expect(r.periodCount).toBe(3);
    expect(r.cohorts).toEqual([
      { units: 1, retained: [1, 1, 1] },
      { units: 1, retained: [1, 0] },
      { units: 1, retained: [1] },
    ]);
    expect(r).toMatchObject({ units: 3, returningUnits: 1, startEvents: 7, returnEvents: 7 });
  });

  it('uses the start and return events when given, and cuts the last period at until', () => {
    const r = computeRetention(
      {
        since: 0,
        until: DAY + DAY / 2,
        periodMs: DAY,
        start: { kind: 'page_view', eventName: 'Signup' },
        ret: { kind: 'page_view', eventName: 'Buy' },
      },
      [e('a', 'Home', 0), e('a', 'Signup', 5), e('a', 'Buy', DAY + 1), e('b', 'Buy', DAY + 2)],
    );
    expect(r.cohorts).toEqual([
      { units: 1, retained: [1, 1] },
      { units: 0, retained: [0] },
    ]);
    expect(r).toMatchObject({ startEvents: 1, returnEvents: 2, units: 1, returningUnits: 1 });
  });
});
