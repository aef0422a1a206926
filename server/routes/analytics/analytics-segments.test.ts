import { describe, expect, it } from 'vitest';
import { analyticsPost, analyticsWorld } from '../../test-support/analytics';
import { expectError, type ApiResponse } from '../../test-support/api-client';
import { T0, actionItem, at, nativeBody } from '../../test-support/telemetry';

const UNTIL = at(3_600_000);
const envelope = (res: ApiResponse) => res.body as { error: string; next: string };
type Top = { kind: string; event_name: string; events: number; units: number };
type Segment = {
  name: string;
  filters: Record<string, string | null>;
  events: number;
  units: number;
  unit_identified_events: number;
  events_per_unit: number;
  share_of_project_units: number;
  top_actions: Top[];
  difference_from_baseline: {
    units: number;
    units_rate_change: number;
    events_per_unit_change: number;
  };
};
type Comparison = {
  query: Record<string, unknown>;
  baseline: string;
  project: { events: number; units: number };
  segments: Segment[];
  coverage: {
    events: number;
    segment_events: { name: string; events: number }[];
    overlapping: string;
    limitations: string[];
  };
};
const PRODUCTION = { name: 'Production', environment: ' production ' };
const STAGING = { name: 'Staging', environment: 'staging' };
const EVERYTHING = { name: 'Everything' };
const counts = (s: Segment | undefined) => [
  s?.events,
  s?.units,
  s?.unit_identified_events,
  s?.events_per_unit,
  s?.share_of_project_units,
];

describe('POST /api/telemetry/analytics/segments/compare', () => {
  const world = analyticsWorld(async (send) => {
    const a = (session: string | null, user: string, name: string, sec: number, kind?: string) =>
      actionItem({
        session_id: session === null ? null : `seg-session-${session}`,
        distinct_id: `seg-user-${user}`,
        name,
        kind: kind ?? 'page_view',
        occurred_at: at(sec * 1000),
      });
    const batches = [
      // Production, checkout-api: sessions s1 to s3 and one action without a session.
      nativeBody({
        actions: [
          a('s1', 'u1', 'Home', 0),
          a('s1', 'u1', 'Buy', 1, 'interaction'),
          a('s2', 'u2', 'Home', 0),
          a('s3', 'u1', 'Home', 10),
          a(null, 'u3', 'Home', 0),
        ],
      }),
      // Staging, its own release; u1 is there too.
      nativeBody({
        environment: 'staging',
        release: 'shop@1.1.0',
        actions: [
          a('s4', 'u4', 'Home', 0),
          a('s4', 'u4', 'Buy', 1, 'interaction'),
          a('s4', 'u4', 'Buy', 2, 'interaction'),
          a('s5', 'u1', 'Home', 20),
        ],
      }),
      // Production, another service; and one action at until (outside).
      nativeBody({
        service_name: 'search-api',
        actions: [a('s6', 'u5', 'Search', 0), a('s7', 'u6', 'Search', 3600)],
      }),
    ];
    for (const json of batches) {
      await send(json);
    }
  });
  const api = analyticsPost<Comparison>(world, '/api/telemetry/analytics/segments/compare', () => ({
    since: T0,
    until: UNTIL,
    segments: [PRODUCTION, STAGING, EVERYTHING],
  }));
  const compare = api.read;

  it('counts sessions per segment against the first, with the top actions', async () => {
    const body = await compare();
    expect(body.query).toEqual({
      project_id: world.projectId,
      since: T0,
      until: UNTIL,
      analysis_unit: 'session',
      event: null,
      segments: [
        { name: 'Production', service_name: null, release: null, environment: 'production' },
        { name: 'Staging', service_name: null, release: null, environment: 'staging' },
        { name: 'Everything', service_name: null, release: null, environment: null },
      ],
    });
    expect(body.baseline).toBe('Production');
    expect(body.project).toEqual({ events: 10, units: 6 });
    const [production, staging, everything] = body.segments;
    expect(production?.filters).toEqual({
      service_name: null,
      release: null,
      environment: 'production',
    });
    // The action without a session is an event, not a unit, and not in events_per_unit.
    expect(counts(production)).toEqual([6, 4, 5, 1.25, 4 / 6]);
    expect(counts(staging)).toEqual([4, 2, 4, 2, 2 / 6]);
    expect(counts(everything)).toEqual([10, 6, 9, 1.5, 1]);
    expect(production?.top_actions).toEqual([
      { kind: 'page_view', event_name: 'Home', events: 4, units: 3 },
      { kind: 'interaction', event_name: 'Buy', events: 1, units: 1 },
      { kind: 'page_view', event_name: 'Search', events: 1, units: 1 },
    ]);
    expect(staging?.top_actions).toEqual([
      { kind: 'interaction', event_name: 'Buy', events: 2, units: 1 },
      { kind: 'page_view', event_name: 'Home', events: 2, units: 2 },
    ]);
    expect(body.segments.map((s) => s.difference_from_baseline)).toEqual([
      { units: 0, units_rate_change: 0, events_per_unit_change: 0 },
      { units: -2, units_rate_change: -0.5, events_per_unit_change: 0.75 },
      { units: 2, units_rate_change: 0.5, events_per_unit_change: 0.25 },
    ]);
    expect(body.coverage).toMatchObject({
      events: 10,
      segment_events: [
        { name: 'Production', events: 6 },
        { name: 'Staging', events: 4 },
        { name: 'Everything', events: 10 },
      ],
    });
    expect(body.coverage.overlapping).toMatch(/overlap/);
    expect(body.coverage.limitations.join(' ')).toMatch(/without the unit id/);
  });

  it('counts a unit in every segment it has actions in (overlap)', async () => {
    const body = await compare({
      analysis_unit: 'identified_user',
      segments: [PRODUCTION, STAGING],
    });
    expect(body.project).toEqual({ events: 10, units: 5 });
    // u1 acted in both environments: 4 + 2 units out of 5.
    expect(counts(body.segments[0])).toEqual([6, 4, 6, 1.5, 0.8]);
    expect(counts(body.segments[1])).toEqual([4, 2, 4, 2, 0.4]);
    expect(body.segments[1]?.difference_from_baseline).toEqual({
      units: -2,
      units_rate_change: -0.5,
      events_per_unit_change: 0.5,
    });
  });

  it('measures only the given event and lists just it in top_actions', async () => {
    const body = await compare({
      event: { kind: 'interaction', event_name: ' Buy ' },
      segments: [PRODUCTION, { name: 'New release', release: ' shop@1.1.0 ' }],
    });
    expect(body.query.event).toEqual({ kind: 'interaction', event_name: 'Buy' });
    expect(body.project).toEqual({ events: 3, units: 2 });
    expect(counts(body.segments[0])).toEqual([1, 1, 1, 1, 0.5]);
    expect(counts(body.segments[1])).toEqual([2, 1, 2, 2, 0.5]);
    expect(body.segments[1]?.filters).toEqual({
      service_name: null,
      release: 'shop@1.1.0',
      environment: null,
    });
    expect(body.segments.map((s) => s.top_actions)).toEqual([
      [{ kind: 'interaction', event_name: 'Buy', events: 1, units: 1 }],
      [{ kind: 'interaction', event_name: 'Buy', events: 2, units: 1 }],
    ]);
    expect(body.segments[1]?.difference_from_baseline).toEqual({
      units: 0,
      units_rate_change: 0,
      events_per_unit_change: 1,
    });
    // All actions in each segment's filters, whatever the event.
    expect(body.coverage.events).toBe(10);
    expect(body.coverage.segment_events.map((s) => s.events)).toEqual([6, 4]);
  });

  it('reports 0, never null, when a denominator is 0', async () => {
    const body = await compare({ event: { kind: 'page_view', event_name: 'Nowhere' } });
    expect(body.project).toEqual({ events: 0, units: 0 });
    for (const s of body.segments) {
      expect(counts(s)).toEqual([0, 0, 0, 0, 0]);
      expect(s.difference_from_baseline).toEqual({
        units: 0,
        units_rate_change: 0,
        events_per_unit_change: 0,
      });
      expect(s.top_actions).toEqual([
        { kind: 'page_view', event_name: 'Nowhere', events: 0, units: 0 },
      ]);
    }
  });

  it('returns no session or distinct ids', async () => {
    for (const analysis_unit of ['session', 'identified_user']) {
      const res = await api.post(api.request({ analysis_unit }));
      expect(res.status).toBe(200);
      expect(res.text).not.toMatch(/seg-session|seg-user/);
    }
  });

  it('gives 200 with zero counts for a project the account cannot read', async () => {
    const body = await compare({ project_id: world.tenant.projectId });
    expect(body.project).toEqual({ events: 0, units: 0 });
    expect(body.segments.map((s) => s.name)).toEqual(['Production', 'Staging', 'Everything']);
    for (const s of body.segments) {
      expect(counts(s)).toEqual([0, 0, 0, 0, 0]);
      expect(s.top_actions).toEqual([]);
    }
    expect(body.coverage).toMatchObject({ events: 0 });
    expect(body.coverage.segment_events.map((s) => s.events)).toEqual([0, 0, 0]);
  });

  it('says filters go inside each segment when one is at the top level', async () => {
    for (const key of ['service_name', 'release', 'environment']) {
      const res = await api.post(api.request({ [key]: 'production' }));
      expectError(res, 422, 'validation_failed', { code: 'fix_request', target: 'request' });
      expect(envelope(res).error).toMatch(
        new RegExp(`${key} must not be at the top level: filters go inside each segment`),
      );
      expect(envelope(res).next).toMatch(/into the segments/);
    }
  });

  it('refuses bad segments and fields with 422 validation_failed', async () => {
    const five = ['a', 'b', 'c', 'd', 'e'].map((name) => ({ name }));
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ segments: [PRODUCTION] }, /segments: must have 2 to 4 segments/],
      [{ segments: five }, /segments: must have 2 to 4 segments/],
      [{ segments: undefined }, /segments/],
      [{ segments: [{ name: 'Prod' }, { name: ' prod ' }] }, /duplicate name "prod"/],
      [{ segments: [{ name: ' ' }, STAGING] }, /segments\.0\.name: name must be 1 to 64/],
      [{ segments: [{ name: 'n'.repeat(65) }, STAGING] }, /name must be 1 to 64/],
      [
        { segments: [PRODUCTION, { name: 'x', release: ' ' }] },
        /segments\.1\.release must be 1 to 256/,
      ],
      [
        { segments: [PRODUCTION, { name: 'x', service_name: 's'.repeat(257) }] },
        /segments\.1\.service_name must be 1 to 256/,
      ],
      [{ segments: [PRODUCTION, { name: 'x', env: 'staging' }] }, /unknown key env/],
      [{ since: '32d', until: undefined }, /at most 31 days/],
      [{ until: T0 }, /until must be later than since/],
      [{ analysis_unit: 'device' }, /analysis_unit/],
      [{ event: { kind: 'page_view', event_name: '' } }, /event_name must be 1 to 256/],
      [{ period: 'day' }, /unknown key period/],
    ];
    for (const [o, text] of cases) {
      const res = await api.post(api.request(o));
      expectError(res, 422, 'validation_failed');
      expect(envelope(res).error).toMatch(text);
    }
    expectError(await api.post('nope'), 422, 'invalid_json');
  });

  it('needs an account bearer', async () => {
    expectError(await api.post(api.request(), false), 401, 'unauthorized');
  });
});
