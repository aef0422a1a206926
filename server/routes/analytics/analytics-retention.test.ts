import { describe, expect, it } from 'vitest';
import { analyticsPost, analyticsWorld } from '../../test-support/analytics';
import { expectError } from '../../test-support/api-client';
import { T0, actionItem, at, nativeBody } from '../../test-support/telemetry';

const DAY = 86_400_000;
const UNTIL = at(3 * DAY);
type Retention = {
  query: Record<string, unknown>;
  summary: Record<string, number>;
  cohorts: { start: string; units: number; retained: number[]; rates: number[] }[];
  coverage: Record<string, unknown>;
};

describe('POST /api/telemetry/analytics/retention', () => {
  const world = analyticsWorld(async (send) => {
    const a = (user: string, name: string, ms: number) =>
      actionItem({ distinct_id: user, name, kind: 'page_view', occurred_at: at(ms) });
    // u1: day 0 and day 2; u2: day 0 and day 1; u3: day 1 only; u4 signs up on day 1 and buys
    // on day 2; one action before since and one at until are outside.
    await send(
      nativeBody({
        actions: [
          a('u1', 'Home', 0),
          a('u1', 'Home', 2 * DAY + 1),
          a('u2', 'Home', 5),
          a('u2', 'Buy', DAY + 5),
          a('u3', 'Home', DAY),
          a('u4', 'Signup', DAY + 10),
          a('u4', 'Buy', 2 * DAY + 10),
          a('u5', 'Home', -1),
          a('u5', 'Home', 3 * DAY),
        ],
      }),
    );
  });
  const api = analyticsPost<Retention>(world, '/api/telemetry/analytics/retention', () => ({
    since: T0,
    until: UNTIL,
  }));
  const retention = api.read;

  it('groups users by the day of their first action and counts later returns', async () => {
    const body = await retention();
    expect(body.query).toMatchObject({
      since: T0,
      until: UNTIL,
      period: 'day',
      start_event: null,
      return_event: null,
      environment: null,
    });
    expect(body.cohorts).toEqual([
      { start: at(0), units: 2, retained: [2, 1, 1], rates: [1, 0.5, 0.5] },
      { start: at(DAY), units: 2, retained: [2, 1], rates: [1, 0.5] },
      { start: at(2 * DAY), units: 0, retained: [0], rates: [0] },
    ]);
    expect(body.summary).toEqual({ units: 4, returning_units: 3, return_rate: 0.75 });
    expect(body.coverage).toMatchObject({ events: 7, start_events: 7, return_events: 7 });
  });

  it('uses the start and return events when given', async () => {
    const body = await retention({
      start_event: { kind: 'page_view', event_name: ' Signup ' },
      return_event: { kind: 'page_view', event_name: 'Buy' },
    });
    expect(body.query.start_event).toEqual({ kind: 'page_view', event_name: 'Signup' });
    expect(body.cohorts.map((c) => c.retained)).toEqual([[0, 0, 0], [1, 1], [0]]);
    expect(body.summary).toEqual({ units: 1, returning_units: 1, return_rate: 1 });
    const week = await retention({ period: 'week' });
    expect(week.cohorts).toEqual([{ start: T0, units: 4, retained: [4], rates: [1] }]);
  });

  it('gives 200 with zero counts for a project the account cannot read', async () => {
    const body = await retention({ project_id: world.tenant.projectId });
    expect(body.summary).toEqual({ units: 0, returning_units: 0, return_rate: 0 });
    expect(body.cohorts.map((c) => c.units)).toEqual([0, 0, 0]);
  });

  it('refuses bad fields with 422 validation_failed', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ period: 'month' }, /period/],
      [{ start_event: { kind: 'page_view', event_name: ' ' } }, /event_name must be 1 to 256/],
      [{ return_event: { kind: 'click', event_name: 'x' } }, /return_event\.kind/],
      [{ since: '32d', until: undefined }, /at most 31 days/],
      [{ until: T0 }, /until must be later than since/],
      [{ release: ' ' }, /release must be 1 to 256/],
      [{ project_id: 'x' }, /project_id: must be a UUID/],
      [{ analysis_unit: 'session' }, /unknown key analysis_unit/],
    ];
    await api.refuses(cases);
    expectError(await api.post('nope'), 422, 'invalid_json');
  });
});
