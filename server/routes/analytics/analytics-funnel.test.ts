import { describe, expect, it } from 'vitest';
import { analyticsPost, analyticsWorld } from '../../test-support/analytics';
import { call, expectError } from '../../test-support/api-client';
import { T0, actionItem, at, nativeBody } from '../../test-support/telemetry';

type Step = Record<string, unknown> & { units: number };
type Funnel = {
  schema_version: number;
  query: Record<string, unknown>;
  purpose: string;
  summary: Record<string, number>;
  coverage: Record<string, unknown> & { limitations: string[] };
  steps: Step[];
  next_action: Record<string, unknown>;
};

const S = 1000;
const UNTIL = at(3600 * S);
const STEPS = [
  { kind: 'page_view', event_name: 'Home' },
  { kind: 'page_view', event_name: 'Product' },
  { kind: 'interaction', event_name: 'Add to cart' },
];

/**
 * Hand-made sessions (session sN, user uN; times in seconds after T0, window 600 s):
 * s1 Home 0, Product 60, Add 120                 → all three steps
 * s2 Home 0, Add 30 (before Product), Product 60 → two steps
 * s3 Home 0, Product 60, Add 700 (window ended)  → two steps
 * s4 Product 0 (before entry), Home 10, Home 15, Product 20, Add 30 → all three
 * s5 Home 0, screen_view "Product" (wrong kind)  → one step
 * s6 Search, an action with a blank name         → candidate only
 * s7 Home 0 in staging                           → one step (all environments)
 * no session (user u9): Home 0, Product 5       → excluded for sessions, two steps for users
 * s8 Home one minute before since                → outside the range
 */
function actions() {
  const a = (session: string | null, user: string, name: string, sec: number, kind?: string) =>
    actionItem({
      session_id: session,
      distinct_id: user,
      name,
      kind: kind ?? (name === 'Add to cart' || name === 'Search' ? 'interaction' : 'page_view'),
      occurred_at: at(sec * S),
    });
  return {
    production: [
      a('s1', 'u1', 'Home', 0),
      a('s1', 'u1', 'Product', 60),
      a('s1', 'u1', 'Add to cart', 120),
      a('s2', 'u2', 'Home', 0),
      a('s2', 'u2', 'Add to cart', 30),
      a('s2', 'u2', 'Product', 60),
      a('s3', 'u3', 'Home', 0),
      a('s3', 'u3', 'Product', 60),
      a('s3', 'u3', 'Add to cart', 700),
      a('s4', 'u4', 'Product', 0),
      a('s4', 'u4', 'Home', 10),
      a('s4', 'u4', 'Home', 15),
      a('s4', 'u4', 'Product', 20),
      a('s4', 'u4', 'Add to cart', 30),
      a('s5', 'u5', 'Home', 0),
      a('s5', 'u5', 'Product', 10, 'screen_view'),
      a('s6', 'u6', 'Search', 0),
      a('s6', 'u6', '  ', 5, 'interaction'),
      a(null, 'u9', 'Home', 0),
      a(null, 'u9', 'Product', 5),
      a('s8', 'u8', 'Home', -60),
    ],
    staging: [a('s7', 'u7', 'Home', 0)],
  };
}

describe('POST /api/telemetry/analytics/funnel', () => {
  const world = analyticsWorld(async (send) => {
    const { production, staging } = actions();
    for (const [environment, items] of [
      ['production', production],
      ['staging', staging],
    ] as const) {
      await send(
        // Staging runs a release of its own, for the release filter.
        nativeBody({
          environment,
          release: `shop@1.${environment === 'staging' ? 1 : 0}.0`,
          actions: items,
        }),
      );
    }
  });
  const api = analyticsPost<Funnel>(world, '/api/telemetry/analytics/funnel', () => ({
    since: T0,
    until: UNTIL,
    analysis_unit: 'session',
    conversion_window_seconds: 600,
    steps: STEPS,
  }));
  const funnel = api.read;

  it('counts ordered completion per session within the window, with coverage', async () => {
    const body = await funnel();
    expect(body.schema_version).toBe(1);
    expect(body.query).toEqual({
      project_id: world.projectId,
      since: T0,
      until: UNTIL,
      environment: null,
      service_name: null,
      release: null,
      analysis_unit: 'session',
      conversion_window_seconds: 600,
      steps: STEPS,
    });
    expect(body.summary).toEqual({
      candidate_units: 7,
      entered_units: 6,
      completed_units: 2,
      entry_rate: 6 / 7,
      overall_conversion_rate: 2 / 6,
    });
    expect(body.coverage).toMatchObject({
      classified_events: 21,
      named_events: 20,
      unnamed_events: 1,
      unit_identified_events: 19,
      selected_step_events: 18,
      usable_selected_step_events: 16,
      excluded_selected_step_events: 2,
      event_name_rate: 20 / 21,
      selected_unit_coverage_rate: 16 / 18,
    });
    expect(body.coverage.limitations.join('\n')).toMatch(
      /2 of 18 selected step events had no session_id/,
    );
    expect(body.steps).toEqual([
      {
        position: 1,
        kind: 'page_view',
        event_name: 'Home',
        units: 6,
        conversion_from_first: 1,
        drop_off_to_next_units: 2,
        drop_off_to_next_rate: 2 / 6,
      },
      {
        position: 2,
        kind: 'page_view',
        event_name: 'Product',
        units: 4,
        conversion_from_first: 4 / 6,
        drop_off_to_next_units: 2,
        drop_off_to_next_rate: 0.5,
      },
      {
        position: 3,
        kind: 'interaction',
        event_name: 'Add to cart',
        units: 2,
        conversion_from_first: 2 / 6,
        conversion_from_previous: 0.5,
      },
    ]);
    expect(body.next_action).toMatchObject({
      code: 'compare_funnel_contexts',
      target: '/api/telemetry/analytics/funnel',
    });
    expect(typeof body.next_action.reason).toBe('string');
    expect(body.purpose).toMatch(/sessions/);
  });

  it('never returns a raw identity', async () => {
    const res = await api.post(api.request({ analysis_unit: 'identified_user' }));
    for (const id of ['s1', 's4', 'u1', 'u9']) expect(res.text).not.toMatch(new RegExp(`"${id}"`));
  });

  it('filters one environment exactly (trimmed)', async () => {
    const body = await funnel({ environment: ' production ' });
    expect(body.query.environment).toBe('production');
    expect(body.summary).toMatchObject({
      candidate_units: 6,
      entered_units: 5,
      completed_units: 2,
    });
    expect(body.coverage).toMatchObject({ classified_events: 20, selected_step_events: 17 });
    const staging = await funnel({ environment: 'staging' });
    expect(staging.steps.map((s) => s.units)).toEqual([1, 0, 0]);
  });

  it('filters one release and one service exactly (our shared-filter extension)', async () => {
    const staging = await funnel({ release: ' shop@1.1.0 ' });
    expect(staging.query).toMatchObject({ release: 'shop@1.1.0', service_name: null });
    expect(staging.summary).toMatchObject({ candidate_units: 1, entered_units: 1 });
    expect(staging.steps.map((s) => s.units)).toEqual([1, 0, 0]);
    const production = await funnel({ release: 'shop@1.0.0' });
    expect(production.summary).toMatchObject({ candidate_units: 6, entered_units: 5 });
    const service = await funnel({ service_name: 'checkout-api' });
    expect(service.summary).toMatchObject({ candidate_units: 7, entered_units: 6 });
    const other = await funnel({ service_name: 'search-api' });
    expect(other.summary).toMatchObject({ candidate_units: 0, entered_units: 0 });
    expect(other.coverage).toMatchObject({ classified_events: 0, selected_step_events: 0 });
  });

  it('groups by distinct_id for identified_user: actions without a session count', async () => {
    const body = await funnel({ analysis_unit: 'identified_user' });
    expect(body.summary).toEqual({
      candidate_units: 8,
      entered_units: 7,
      completed_units: 2,
      entry_rate: 7 / 8,
      overall_conversion_rate: 2 / 7,
    });
    expect(body.coverage).toMatchObject({
      unit_identified_events: 21,
      usable_selected_step_events: 18,
      excluded_selected_step_events: 0,
      selected_unit_coverage_rate: 1,
    });
    expect(body.steps.map((s) => s.units)).toEqual([7, 5, 2]);
  });

  it('excludes until and applies the window from the entry', async () => {
    // s1's Add to cart at exactly until is out; s4's at 30 s is in.
    const body = await funnel({ until: at(120 * S) });
    expect(body.steps.map((s) => s.units)).toEqual([6, 4, 1]);
    // A 20 s window: s4 entered at 10 s, its Add to cart at 30 s is 20 s later (in);
    // s1's Product at 60 s is past it.
    const short = await funnel({ conversion_window_seconds: 20 });
    expect(short.steps.map((s) => s.units)).toEqual([6, 1, 1]);
  });

  it('lets a repeated step use two different events', async () => {
    const body = await funnel({
      steps: [
        { kind: 'page_view', event_name: 'Home' },
        { kind: 'page_view', event_name: 'Home' },
      ],
    });
    // Only s4 has two Home views.
    expect(body.steps.map((s) => s.units)).toEqual([6, 1]);
  });

  it('gives 200 with zero counts for a project the account cannot read', async () => {
    for (const id of [world.tenant.projectId, '00000000-0000-4000-8000-000000000000']) {
      const body = await funnel({ project_id: id });
      expect(body.summary).toEqual({
        candidate_units: 0,
        entered_units: 0,
        completed_units: 0,
        entry_rate: 0,
        overall_conversion_rate: 0,
      });
      expect(body.coverage).toMatchObject({ classified_events: 0, selected_step_events: 0 });
      expect(body.steps.map((s) => s.units)).toEqual([0, 0, 0]);
      expect(body.steps[2]).toMatchObject({
        conversion_from_first: 0,
        conversion_from_previous: 0,
      });
    }
  });

  it('refuses every bad field with 422 validation_failed', async () => {
    const step = { kind: 'page_view', event_name: 'Home' };
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ steps: [step] }, /steps: must have 2 to 8 steps/],
      [{ steps: Array.from({ length: 9 }, () => step) }, /steps: must have 2 to 8 steps/],
      [{ steps: [step, { kind: 'click', event_name: 'x' }] }, /steps\.1\.kind/],
      [{ steps: [step, { kind: 'page_view', event_name: '  ' }] }, /event_name must be 1 to 256/],
      [{ steps: [step, { kind: 'page_view', event_name: 'x'.repeat(257) }] }, /1 to 256/],
      [{ steps: [step, { kind: 'page_view' }] }, /steps\.1\.event_name/],
      [{ conversion_window_seconds: 0 }, /conversion_window_seconds: must be at least 1/],
      [{ conversion_window_seconds: 1.5 }, /conversion_window_seconds: must be an integer/],
      [{ conversion_window_seconds: 31 * 86_400 + 1 }, /at most 2678400/],
      [{ conversion_window_seconds: '60' }, /conversion_window_seconds/],
      [{ analysis_unit: 'device' }, /analysis_unit/],
      [{ project_id: 'nope' }, /project_id: must be a UUID/],
      [{ since: undefined }, /since/],
      [{ since: 'yesterday' }, /since must be/],
      [{ until: '24h' }, /until must be an RFC3339/],
      [{ until: T0 }, /until must be later than since/],
      [{ since: '2025-01-01T00:00:00Z', until: '2025-02-01T00:00:01Z' }, /at most 31 days/],
      [{ environment: ' ' }, /environment must be 1 to 256/],
      [{ environment: 'e'.repeat(257) }, /environment must be 1 to 256/],
      [{ release: ' ' }, /release must be 1 to 256/],
      [{ service_name: 's'.repeat(257) }, /service_name must be 1 to 256/],
      [{ releases: 'web@1' }, /unknown key releases/],
    ];
    await api.refuses(cases);
    // Exactly 31 days and 8 steps are fine.
    const ok = await api.post(
      api.request({
        since: '2025-01-01T00:00:00Z',
        until: '2025-02-01T00:00:00Z',
        steps: Array.from({ length: 8 }, () => step),
        conversion_window_seconds: 31 * 86_400,
      }),
    );
    expect(ok.status, ok.text).toBe(200);
  });

  it('answers unreadable JSON and non-objects as invalid_json, and needs a bearer', async () => {
    const bad = await call(world.svc.baseUrl, 'POST', '/api/telemetry/analytics/funnel', {
      token: world.token,
      raw: '{"project_id":',
    });
    expectError(bad, 400, 'invalid_json');
    expectError(await api.post([api.request()]), 422, 'invalid_json');
    const anonymous = await call(world.svc.baseUrl, 'POST', '/api/telemetry/analytics/funnel', {
      json: api.request(),
    });
    expect(anonymous.status).toBe(401);
  });
});
