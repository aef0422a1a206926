import { describe, expect, it } from 'vitest';
import { analyticsPost, analyticsWorld } from '../../test-support/analytics';
import { expectError } from '../../test-support/api-client';
import { T0, actionItem, at, nativeBody } from '../../test-support/telemetry';

const DAY = 86_400_000;
const UNTIL = at(4 * DAY);
type Row = {
  start: string;
  active: number;
  new: number;
  returning: number;
  resurrecting: number;
  dormant: number;
};
type Lifecycle = {
  query: Record<string, unknown>;
  period_seconds: number;
  summary: Record<string, number>;
  periods: Row[];
  coverage: { events: number; matching_events: number; limitations: string[] };
};
const row = (
  day: number,
  active: number,
  n: number,
  returning: number,
  resurrecting: number,
  dormant: number,
): Row => ({ start: at(day * DAY), active, new: n, returning, resurrecting, dormant });

describe('POST /api/telemetry/analytics/lifecycle', () => {
  const world = analyticsWorld(async (send) => {
    const a = (user: string, name: string, ms: number, kind = 'page_view') =>
      actionItem({
        distinct_id: `lc-user-${user}`,
        session_id: `lc-session-${user}`,
        name,
        kind,
        occurred_at: at(ms),
      });
    // u1: days 0, 1 and 3 (new, returning, dormant on day 2, resurrecting); u2: day 0 only;
    // u3: days 2 and 3; u4: before since and day 2 (new on day 2); u5: only at until.
    await send(
      nativeBody({
        actions: [
          a('u1', 'Home', 0),
          a('u1', 'Buy', 10, 'interaction'),
          a('u1', 'Home', DAY + 1),
          a('u1', 'Home', 3 * DAY),
          a('u2', 'Home', 5),
          a('u2', 'Buy', 20), // a page_view named Buy: not the interaction
          a('u3', 'Home', 2 * DAY),
          a('u3', 'Home', 3 * DAY + 1),
          a('u3', 'Buy', 3 * DAY + 10, 'interaction'),
          a('u4', 'Home', -1),
          a('u4', 'Home', 2 * DAY + 5),
          a('u5', 'Home', 4 * DAY),
        ],
      }),
    );
    await send(nativeBody({ environment: 'staging', actions: [a('u6', 'Home', 30)] }));
  });
  const api = analyticsPost<Lifecycle>(world, '/api/telemetry/analytics/lifecycle', () => ({
    since: T0,
    until: UNTIL,
  }));
  const lifecycle = api.read;

  it('classifies users per day as new, returning, resurrecting and dormant', async () => {
    const body = await lifecycle();
    expect(body.query).toEqual({
      project_id: world.projectId,
      since: T0,
      until: UNTIL,
      service_name: null,
      release: null,
      environment: null,
      period: 'day',
      event: null,
    });
    expect(body.period_seconds).toBe(86_400);
    expect(body.periods).toEqual([
      row(0, 3, 3, 0, 0, 0), // the first period: only new, never dormant
      row(1, 1, 0, 1, 0, 2), // u1 returns; u2 and u6 go dormant
      row(2, 2, 2, 0, 0, 1), // u3 new; u4 new (its action before since is not looked at)
      row(3, 2, 0, 1, 1, 1), // u3 returns; u1 resurrects; u4 dormant
    ]);
    expect(body.summary).toEqual({
      active_units: 5,
      new_units: 5,
      returning_units: 2,
      resurrecting_units: 1,
      dormant_units: 4,
    });
    expect(body.coverage).toMatchObject({ events: 11, matching_events: 11 });
    expect(body.coverage.limitations.join(' ')).toMatch(/before since is new/);
    expect(body.coverage.limitations.join(' ')).toMatch(/first period .* no dormant/);
    expect(body.coverage.limitations.join(' ')).toMatch(/distinct_id/);
  });

  it('returns no session or distinct ids', async () => {
    const res = await api.post(api.request());
    expect(res.status).toBe(200);
    expect(res.text).not.toMatch(/lc-user|lc-session/);
  });

  it('counts only the given event, kind and name exactly, and lists every period', async () => {
    const body = await lifecycle({ event: { kind: 'interaction', event_name: ' Buy ' } });
    expect(body.query.event).toEqual({ kind: 'interaction', event_name: 'Buy' });
    expect(body.periods).toEqual([
      row(0, 1, 1, 0, 0, 0),
      row(1, 0, 0, 0, 0, 1),
      row(2, 0, 0, 0, 0, 0),
      row(3, 1, 1, 0, 0, 0),
    ]);
    expect(body.summary).toEqual({
      active_units: 2,
      new_units: 2,
      returning_units: 0,
      resurrecting_units: 0,
      dormant_units: 1,
    });
    expect(body.coverage).toMatchObject({ events: 11, matching_events: 2 });
  });

  it('uses week periods aligned at since, the last cut at until', async () => {
    const week = await lifecycle({ period: 'week' });
    expect(week.period_seconds).toBe(7 * 86_400);
    expect(week.periods).toEqual([row(0, 5, 5, 0, 0, 0)]);
    const long = await lifecycle({ period: 'week', until: at(8 * DAY) });
    expect(long.periods.map((p) => p.start)).toEqual([T0, at(7 * DAY)]);
    // u5's action at 4 days is now in range; nobody is active in the second week.
    expect(long.periods[1]).toEqual(row(7, 0, 0, 0, 0, 6));
  });

  it('applies the exact filters, trimmed', async () => {
    const body = await lifecycle({ environment: ' staging ' });
    expect(body.query.environment).toBe('staging');
    expect(body.periods.map((p) => [p.new, p.dormant])).toEqual([
      [1, 0],
      [0, 1],
      [0, 0],
      [0, 0],
    ]);
    expect(body.coverage.events).toBe(1);
    const none = await lifecycle({ release: 'shop@9' });
    expect(none.summary.active_units).toBe(0);
  });

  it('gives 200 with zero counts for a project the account cannot read', async () => {
    const body = await lifecycle({ project_id: world.tenant.projectId });
    expect(body.periods).toEqual([0, 1, 2, 3].map((d) => row(d, 0, 0, 0, 0, 0)));
    expect(body.summary).toEqual({
      active_units: 0,
      new_units: 0,
      returning_units: 0,
      resurrecting_units: 0,
      dormant_units: 0,
    });
    expect(body.coverage).toMatchObject({ events: 0, matching_events: 0 });
  });

  it('refuses bad fields with 422 validation_failed', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ since: '32d', until: undefined }, /at most 31 days/],
      [{ since: T0, until: at(31 * DAY + 1) }, /at most 31 days/],
      [{ until: T0 }, /until must be later than since/],
      [{ until: at(-1) }, /until must be later than since/],
      [{ environment: ' ' }, /environment must be 1 to 256/],
      [{ service_name: 's'.repeat(257) }, /service_name must be 1 to 256/],
      [{ period: 'month' }, /period/],
      [{ event: { kind: 'page_view', event_name: '' } }, /event_name must be 1 to 256/],
      [{ event: { kind: 'click', event_name: 'Buy' } }, /event\.kind/],
      [{ analysis_unit: 'session' }, /unknown key analysis_unit/],
      [{ project_id: 'x' }, /project_id: must be a UUID/],
    ];
    await api.refuses(cases);
    expectError(await api.post('nope'), 422, 'invalid_json');
  });

  it('needs an account bearer', async () => {
    expectError(await api.post(api.request(), false), 401, 'unauthorized');
  });
});
