import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, type ApiResponse } from '../../test-support/api-client';
import { startService, type RunningService } from '../../test-support/start-service';
import {
  CONTEXT,
  SDK,
  createTenant,
  ingest,
  metricItem,
  sdkBody,
  sdkEvent,
  type Tenant,
} from '../../test-support/telemetry';

type Series = { key: string | null; values: (number | null)[]; samples: number[] };
type Body = Record<string, unknown> & {
  series: Series[];
  buckets: string[];
  truncated_series: boolean;
};

const RANGE = 'since=2025-03-03T08:00:00Z&until=2025-03-03T08:30:00Z&interval=5m';
const m = (minute: number, second = 0) =>
  new Date(Date.parse('2025-03-03T08:00:00Z') + minute * 60_000 + second * 1000).toISOString();
const errorText = (res: ApiResponse) => (res.body as { error: string }).error;

describe('GET /api/telemetry/metrics/series', () => {
  let svc: RunningService<true>;
  let token = '';
  let projectA = '';
  let tenant: Tenant;
  const get = (query: string) =>
    call(svc.baseUrl, 'GET', `/api/telemetry/metrics/series?${query}`, { token });
  const series = (query: string) => get(`project_id=${projectA}&${query}`);

  beforeAll(async () => {
    svc = await startService({ demo: true });
    token = svc.creds.account_token;
    const a = svc.creds.projects[0];
    projectA = a?.id ?? '';
    const send = async (events: unknown[], service = CONTEXT.service_name) => {
      const body = sdkBody(events, { context: { ...CONTEXT, service_name: service } });
      const res = await ingest(svc, SDK, a?.ingest_key ?? '', body);
      expect(res.status, res.text).toBe(200);
    };
    const lcp = (at: string, value: number) =>
      sdkEvent('metric', metricItem({ occurred_at: at, value }));
    const counter = (name: string, at: string, value: number, temporality: string) =>
      sdkEvent(
        'metric',
        metricItem({ name, kind: 'counter', unit: undefined, temporality, occurred_at: at, value }),
      );
    await send([lcp(m(0, 10), 2000), lcp(m(0, 40), 3000), lcp(m(20), 1000)]);
    await send([lcp(m(5), 500)], 'web');
    await send([
      counter('checkout.orders', m(1), 2, 'delta'),
      counter('checkout.orders', m(2), 3, 'delta'),
      counter('orders.total', m(1), 10, 'cumulative'),
      counter('orders.total', m(3), 15, 'cumulative'),
    ]);
    tenant = await createTenant(svc);
  });
  afterAll(async () => {
    await svc.close();
  });

  it('aggregates a gauge per bucket as the mean; an empty bucket is null, not 0', async () => {
    const res = await series(`name=web.vitals.lcp&${RANGE}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      schema_version: 1,
      project_id: projectA,
      name: 'web.vitals.lcp',
      kind: 'gauge',
      unit: 'ms',
      aggregation: 'avg',
      group_by: 'none',
      interval: '5m',
      bucket_seconds: 300,
      since: m(0),
      until: m(30),
      buckets: [m(0), m(5), m(10), m(15), m(20), m(25)],
      series: [
        {
          key: null,
          values: [2500, 500, null, null, 1000, null],
          samples: [2, 1, 0, 0, 1, 0],
        },
      ],
      truncated_series: false,
    });
  });

  it('sums delta counters and takes the largest value of cumulative ones', async () => {
    const delta = (await series(`name=checkout.orders&${RANGE}`)).body as Body;
    expect(delta).toMatchObject({ kind: 'counter', unit: null, aggregation: 'sum' });
    expect(delta.series[0]?.values).toEqual([5, null, null, null, null, null]);
    const cumulative = (await series(`name=orders.total&${RANGE}`)).body as Body;
    expect(cumulative.aggregation).toBe('max');
    expect(cumulative.series[0]?.values[0]).toBe(15);
  });

  it('groups by a field, most samples first, and keeps series_limit of them', async () => {
    const grouped = (await series(`name=web.vitals.lcp&${RANGE}&group_by=service_name`))
      .body as Body;
    expect(grouped.series.map((s) => [s.key, s.values])).toEqual([
      ['checkout-api', [2500, null, null, null, 1000, null]],
      ['web', [null, 500, null, null, null, null]],
    ]);
    expect(grouped.truncated_series).toBe(false);
    const one = (await series(`name=web.vitals.lcp&${RANGE}&group_by=service_name&series_limit=1`))
      .body as Body;
    expect(one.series.map((s) => s.key)).toEqual(['checkout-api']);
    expect(one.truncated_series).toBe(true);
    const byRelease = (await series(`name=web.vitals.lcp&${RANGE}&group_by=release`)).body as Body;
    expect(byRelease.series.map((s) => s.key)).toEqual(['shop@1.0.0']);
  });

  it('filters by exact service, release and environment', async () => {
    const web = (await series(`name=web.vitals.lcp&${RANGE}&service_name=web`)).body as Body;
    expect(web.series[0]?.values).toEqual([null, 500, null, null, null, null]);
    const none = (await series(`name=web.vitals.lcp&${RANGE}&environment=staging`)).body as Body;
    expect(none).toMatchObject({ kind: null, unit: null, aggregation: null, series: [] });
    expect(none.buckets).toHaveLength(6);
  });

  it('defaults until to now and interval to auto', async () => {
    const res = (await series('name=web.vitals.lcp&since=24h')).body as Body;
    expect(res).toMatchObject({ interval: '15m', until: '2025-03-03T09:00:00.000Z' });
    expect(res.buckets).toHaveLength(96);
  });

  it('refuses every bad value with 422', async () => {
    const bad = [
      `name=web.vitals.lcp`,
      RANGE,
      `name=&${RANGE}`,
      `name=x&since=32d`,
      `name=x&since=2025-01-31T00:00:00Z&until=2025-03-03T00:00:00.001Z`,
      `name=x&since=24h&interval=1m`,
      `name=x&since=24h&interval=2m`,
      `name=x&${RANGE}&group_by=sdk_name`,
      `name=x&${RANGE}&series_limit=0`,
      `name=x&${RANGE}&series_limit=21`,
      `name=x&${RANGE}&response_version=2`,
      `name=x&${RANGE}&service_name=`,
      `name=x&since=2025-03-03T08:00:00Z&until=2025-03-03T08:00:00Z`,
      `name=x&${RANGE}&project_ids=${projectA},${tenant.projectId}`,
    ];
    for (const q of bad) expectError(await series(q), 422, 'validation_failed');
    expectError(await get(`name=x&${RANGE}`), 422, 'validation_failed');
    expectError(await get(`project_id=nope&name=x&${RANGE}`), 422, 'validation_failed');
    expect(errorText(await series('name=x&since=24h&interval=1m'))).toContain('at most 500');
    expect(errorText(await series('name=x&since=32d'))).toBe(
      'the range from since to until must be at most 31 days',
    );
    expect((await series('name=x&since=31d&interval=1d')).status).toBe(200);
    expect((await series(`name=x&${RANGE}&series_limit=20&response_version=1`)).status).toBe(200);
  });

  it('answers 404 for a project the account cannot read, and 405 for other methods', async () => {
    expectError(await get(`project_id=${tenant.projectId}&name=x&${RANGE}`), 404, 'not_found');
    expectError(
      await call(svc.baseUrl, 'POST', '/api/telemetry/metrics/series', { token }),
      405,
      'method_not_allowed',
    );
  });
});
