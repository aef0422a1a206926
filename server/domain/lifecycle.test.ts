import { describe, expect, it } from 'vitest';
import type { FunnelEvent } from './funnel';
import { computeLifecycle } from './lifecycle';

const DAY = 86_400_000;
const e = (unit: string | null, name: string, at: number, kind = 'page_view'): FunnelEvent => ({
  unit,
  name,
  kind,
  at,
});
const row = (
  active: number,
  n: number,
  returning: number,
  resurrecting: number,
  dormant: number,
) => ({
  active,
  new: n,
  returning,
  resurrecting,
  dormant,
});

describe('computeLifecycle', () => {
  it('classifies each active unit as new, returning or resurrecting, and counts dormant ones', () => {
    const r = computeLifecycle({ since: 0, until: 4 * DAY, periodMs: DAY, event: null }, [
      e('a', 'Home', 10), // a: days 0, 1, 3
      e('a', 'Home', 20), // same day: one activity
      e('a', 'Home', DAY + 1),
      e('a', 'Home', 3 * DAY),
      e('b', 'Home', 5), // b: day 0 only
      e('c', 'Home', 2 * DAY), // c: days 2 and 3
      e('c', 'Home', 3 * DAY + 1),
      e(null, 'Home', 0), // no unit
      e('d', 'Home', -1), // before since
      e('d', 'Home', 4 * DAY), // at until
    ]);
    expect(r.periods).toEqual([
      row(2, 2, 0, 0, 0), // the first period: only new, never dormant
      row(1, 0, 1, 0, 1), // a returns; b goes dormant
      row(1, 1, 0, 0, 1), // c new; a dormant
      row(2, 0, 1, 1, 0), // c returns; a resurrects
    ]);
    expect(r).toMatchObject({
      matchingEvents: 7,
      activeUnits: 3,
      returningUnits: 2,
      resurrectingUnits: 1,
      dormantUnits: 2,
    });
  });

  it('counts a unit dormant only in the period right after its activity', () => {
    const r = computeLifecycle({ since: 0, until: 3 * DAY, periodMs: DAY, event: null }, [
      e('a', 'Home', 0),
    ]);
    expect(r.periods).toEqual([row(1, 1, 0, 0, 0), row(0, 0, 0, 0, 1), row(0, 0, 0, 0, 0)]);
  });

  it('uses only the given event, matching kind and name exactly', () => {
    const r = computeLifecycle(
      { since: 0, until: 2 * DAY, periodMs: DAY, event: { kind: 'interaction', eventName: 'Buy' } },
      [
        e('a', 'Buy', 0, 'interaction'),
        e('a', 'Buy', DAY, 'page_view'), // other kind
        e('b', 'Buy', DAY, 'interaction'),
        e('b', 'buy', 0, 'interaction'), // other name
      ],
    );
    expect(r.periods).toEqual([row(1, 1, 0, 0, 0), row(1, 1, 0, 0, 1)]);
    expect(r.matchingEvents).toBe(2);
  });

  it('cuts the last period at until and lists every period even when empty', () => {
    const r = computeLifecycle({ since: 0, until: 8 * DAY, periodMs: 7 * DAY, event: null }, [
      e('a', 'Home', 0),
      e('a', 'Home', 7 * DAY + 5),
    ]);
    expect(r.periods).toEqual([row(1, 1, 0, 0, 0), row(1, 0, 1, 0, 0)]);
    const empty = computeLifecycle({ since: 0, until: 2 * DAY, periodMs: DAY, event: null }, []);
    expect(empty.periods).toEqual([row(0, 0, 0, 0, 0), row(0, 0, 0, 0, 0)]);
    expect(empty.activeUnits).toBe(0);
  });
});
