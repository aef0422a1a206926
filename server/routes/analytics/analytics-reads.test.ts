import { describe, expect, it } from 'vitest';
import { analyticsWorld } from '../../test-support/analytics';
import { call, expectError, type ApiResponse } from '../../test-support/api-client';
import { T0, actionItem, at, nativeBody } from '../../test-support/telemetry';

const MIN = 60_000;
const RANGE = `since=${T0}&until=${at(30 * MIN)}`;
const errorText = (res: ApiResponse) => (res.body as { error: string }).error;
type Overview = Record<string, unknown> & {
  totals: Record<string, unknown>;
  top_actions: Record<string, unknown>[];
  coverage: Record<string, unknown>;
};
type Properties = Record<string, unknown> & {
  properties: { key: string; events: number; types: { type: string; events: number }[] }[];
  coverage: Record<string, unknown>;
};

describe('GET /api/telemetry/analytics/overview and /properties', () => {
  const world = analyticsWorld(async (sendBody) => {
    const a = (o: Record<string, unknown>) => actionItem({ properties: {}, ...o });
    const send = (items: unknown[], extra: Record<string, unknown> = {}) =>
      sendBody(nativeBody({ ...extra, actions: items as never }));
    await send([
      a({
        name: 'Home',
        kind: 'page_view',
        distinct_id: 'u1',
        session_id: 's1',
        occurred_at: at(0),
      }),
      a({
        name: 'Home',
        kind: 'page_view',
        distinct_id: 'u2',
        session_id: 's2',
        occurred_at: at(1 * MIN),
        properties: { plan: 'pro', price: 12.5 },
      }),
      a({
        name: 'Home',
        kind: 'page_view',
        distinct_id: 'u1',
        session_id: 's3',
        occurred_at: at(12 * MIN),
        properties: { plan: 'free', tags: ['a'] },
      }),
      a({
        name: 'Buy',
        kind: 'interaction',
        distinct_id: 'u1',
        session_id: null,
        occurred_at: at(13 * MIN),
        properties: { plan: 3, price: 9, ok: true, meta: { x: 1 } },
      }),
      a({
        name: 'Home',
        kind: 'screen_view',
        distinct_id: 'u3',
        session_id: 's4',
        occurred_at: at(29 * MIN),
      }),
      // At until: outside.
      a({ name: 'Home', kind: 'page_view', distinct_id: 'u4', occurred_at: at(30 * MIN) }),
    ]);
    await send(
      [a({ name: 'Home', kind: 'page_view', distinct_id: 'u5', occurred_at: at(2 * MIN) })],
      { environment: 'staging', release: 'shop@2.0.0' },
    );
  });
  const get = (path: string, query: string) =>
    call(world.svc.baseUrl, 'GET', `/api/telemetry/analytics/${path}?${query}`, {
      token: world.token,
    });
  const ok = async <T>(path: string, query: string) => {
    const res = await get(path, `project_id=${world.projectId}&${query}`);
    expect(res.status, res.text).toBe(200);
    return res.body as T;
  };

  it('overview: totals per bucket and the top actions with users and sessions', async () => {
    const body = await ok<Overview>('overview', `${RANGE}&interval=15m&environment=production`);
    expect(body).toMatchObject({
      schema_version: 1,
      project_id: world.projectId,
      since: T0,
      until: at(30 * MIN),
      filters: { service_name: null, release: null, environment: 'production' },
      interval: '15m',
      bucket_seconds: 900,
      buckets: [at(0), at(15 * MIN)],
      totals: { events: 5, users: 3, sessions: 4, events_per_bucket: [4, 1] },
      top_actions: [
        { name: 'Home', kind: 'page_view', events: 3, users: 2, sessions: 3 },
        { name: 'Buy', kind: 'interaction', events: 1, users: 1, sessions: 0 },
        { name: 'Home', kind: 'screen_view', events: 1, users: 1, sessions: 1 },
      ],
      truncated_actions: false,
      coverage: {
        events: 5,
        named_events: 5,
        session_events: 4,
        event_name_rate: 1,
        session_rate: 0.8,
      },
    });
    const all = await ok<Overview>('overview', `${RANGE}&interval=15m&top_limit=1`);
    expect(all.totals).toMatchObject({ events: 6, events_per_bucket: [5, 1] });
    expect(all.top_actions).toEqual([
      { name: 'Home', kind: 'page_view', events: 4, users: 3, sessions: 4 },
    ]);
    expect(all.truncated_actions).toBe(true);
    const release = await ok<Overview>('overview', `${RANGE}&release=%20shop%402.0.0%20`);
    expect(release.totals).toMatchObject({ events: 1 });
    expect(release.filters).toMatchObject({ release: 'shop@2.0.0' });
  });

  it('properties: top-level keys with counts and types, most actions first', async () => {
    const body = await ok<Properties>('properties', RANGE);
    expect(body.properties).toEqual([
      {
        key: 'plan',
        events: 3,
        types: [
          { type: 'string', events: 2 },
          { type: 'number', events: 1 },
        ],
      },
      { key: 'price', events: 2, types: [{ type: 'number', events: 2 }] },
      { key: 'meta', events: 1, types: [{ type: 'object', events: 1 }] },
      { key: 'ok', events: 1, types: [{ type: 'boolean', events: 1 }] },
      { key: 'tags', events: 1, types: [{ type: 'array', events: 1 }] },
    ]);
    expect(body.truncated).toBe(false);
    expect(body.coverage).toMatchObject({
      events: 6,
      events_with_properties: 3,
      property_rate: 0.5,
    });
    const limited = await ok<Properties>('properties', `${RANGE}&limit=2`);
    expect(limited.properties.map((p) => p.key)).toEqual(['plan', 'price']);
    expect(limited.truncated).toBe(true);
    expect((await ok<Properties>('properties', `${RANGE}&limit=100000`)).properties).toHaveLength(
      5,
    );
    expect(body).not.toHaveProperty('values');
    expect(JSON.stringify(body)).not.toMatch(/"pro"|"u1"|"s1"/);
  });

  it('gives 200 with zero counts for a project the account cannot read', async () => {
    for (const id of [world.tenant.projectId, '00000000-0000-4000-8000-000000000000']) {
      const overview = await get('overview', `project_id=${id}&${RANGE}&interval=15m`);
      expect(overview.status, overview.text).toBe(200);
      expect((overview.body as Overview).totals).toEqual({
        events: 0,
        users: 0,
        sessions: 0,
        events_per_bucket: [0, 0],
      });
      expect((overview.body as Overview).top_actions).toEqual([]);
      const properties = await get('properties', `project_id=${id}&${RANGE}`);
      expect(properties.status, properties.text).toBe(200);
      expect((properties.body as Properties).properties).toEqual([]);
      expect((properties.body as Properties).coverage).toMatchObject({
        events: 0,
        property_rate: 0,
      });
    }
  });

  it('refuses bad query values with 422 validation_failed', async () => {
    const p = `project_id=${world.projectId}`;
    const cases: [string, string, RegExp][] = [
      ['overview', RANGE, /project_id/],
      ['overview', `project_id=x&${RANGE}`, /project_id must be a UUID/],
      ['overview', p, /since/],
      ['overview', `${p}&since=32d`, /at most 31 days/],
      ['overview', `${p}&since=${T0}&until=${T0}`, /until must be later than since/],
      ['overview', `${p}&${RANGE}&environment=%20`, /environment must be 1 to 256/],
      [
        'overview',
        `${p}&${RANGE}&service_name=${'s'.repeat(257)}`,
        /service_name must be 1 to 256/,
      ],
      ['overview', `${p}&${RANGE}&top_limit=0`, /top_limit must be an integer from 1 to 50/],
      ['overview', `${p}&${RANGE}&top_limit=51`, /top_limit/],
      ['overview', `${p}&since=7d&interval=1m`, /at most 500 are allowed/],
      ['overview', `${p}&${RANGE}&interval=2m`, /invalid query parameters/],
      ['overview', `${p}&${RANGE}&response_version=2`, /response_version/],
      ['overview', `${p}&${RANGE}&limit=5`, /invalid query parameters/],
      ['properties', `${p}&${RANGE}&limit=0`, /limit must be an integer from 1 to 500/],
      ['properties', `${p}&${RANGE}&interval=1h`, /invalid query parameters/],
      ['properties', `${p}&${RANGE}&release=%20`, /release must be 1 to 256/],
      ['properties', `${p}&since=yesterday`, /since must be/],
    ];
    for (const [path, query, text] of cases) {
      const res = await get(path, query);
      expectError(res, 422, 'validation_failed');
      expect(errorText(res)).toMatch(text);
    }
  });
});
