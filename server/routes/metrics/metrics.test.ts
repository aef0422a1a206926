import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, type ApiResponse } from '../../test-support/api-client';
import { startService, type RunningService } from '../../test-support/start-service';
import {
  SDK,
  at,
  createTenant,
  ingest,
  metricItem,
  sdkBody,
  sdkEvent,
  type Tenant,
} from '../../test-support/telemetry';

type Sample = Record<string, unknown> & { id: string; event_id: string; value: number };
type Page = { metrics: Sample[]; next_cursor: { time: string; id: string } | null };

const values = (res: ApiResponse) => (res.body as Sample[]).map((m) => m.value);

describe('GET /api/telemetry/metrics', () => {
  let svc: RunningService<true>;
  let token = '';
  let projectA = '';
  let tenant: Tenant;
  const get = (query = '') =>
    call(svc.baseUrl, 'GET', `/api/telemetry/metrics${query ? `?${query}` : ''}`, { token });
  const lcp = metricItem({
    occurred_at: at(3000),
    value: 2400,
    trace_id: 'c'.repeat(32),
    span_id: 'd'.repeat(16),
  });

  beforeAll(async () => {
    svc = await startService({ demo: true });
    token = svc.creds.account_token;
    const a = svc.creds.projects[0];
    projectA = a?.id ?? '';
    const events = [
      sdkEvent('metric', metricItem({ occurred_at: at(1000), value: 1 })),
      sdkEvent(
        'metric',
        metricItem({
          occurred_at: at(2000),
          value: 2,
          name: 'checkout.orders',
          kind: 'counter',
          unit: undefined,
          temporality: 'delta',
          attributes: { region: 'eu' },
        }),
      ),
      sdkEvent('metric', lcp),
    ];
    const res = await ingest(svc, SDK, a?.ingest_key ?? '', sdkBody(events));
    expect(res.status, res.text).toBe(200);
    tenant = await createTenant(svc);
    await ingest(svc, SDK, tenant.ingestKey, sdkBody([sdkEvent('metric', metricItem())]));
  });
  afterAll(async () => {
    await svc.close();
  });

  it('lists readable samples newest first as Metric sample records', async () => {
    const res = await get();
    expect(res.status, res.text).toBe(200);
    expect(values(res)).toEqual([2400, 2, 1]);
    const [first, second] = res.body as Sample[];
    expect(first).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      event_id: lcp.id,
      project_id: projectA,
      name: 'web.vitals.lcp',
      kind: 'gauge',
      value: 2400,
      unit: 'ms',
      temporality: null,
      attributes: {},
      occurred_at: at(3000),
      environment: 'production',
      release: 'shop@1.0.0',
      trace_id: 'c'.repeat(32),
      span_id: 'd'.repeat(16),
      service_name: 'checkout-api',
      sdk_name: 'lookout.javascript',
      sdk_version: '2.3.0',
    });
    expect(first?.id).not.toBe(lcp.id);
    expect(second).toMatchObject({
      kind: 'counter',
      unit: null,
      temporality: 'delta',
      trace_id: null,
      span_id: null,
      attributes: { region: 'eu' },
    });
  });

  it('filters by exact name, service, release, environment and since', async () => {
    expect(values(await get('name=checkout.orders'))).toEqual([2]);
    expect(values(await get('name=checkout'))).toEqual([]);
    expect(
      values(await get('service_name=checkout-api&release=shop@1.0.0&environment=production')),
    ).toHaveLength(3);
    expect(values(await get('environment=staging'))).toEqual([]);
    expect(values(await get(`since=${at(2000)}`))).toEqual([2400, 2]);
    for (const q of ['name=', 'distinct_id=x', `until=${at(0)}`, 'limit=-1'])
      expectError(await get(q), 422, 'validation_failed');
  });

  it('reads the project scope like every list and pages with cursor_time and cursor_id', async () => {
    expect(await get(`project_id=${tenant.projectId}`)).toMatchObject({ status: 200, body: [] });
    expectError(await get(`project_ids=${projectA},${tenant.projectId}`), 404, 'not_found');
    const seen: number[] = [];
    let next: Page['next_cursor'] = null;
    do {
      const res = await get(
        `pagination=cursor&limit=2${next ? `&cursor_time=${next.time}&cursor_id=${next.id}` : ''}`,
      );
      expect(res.status, res.text).toBe(200);
      seen.push(...(res.body as Page).metrics.map((m) => m.value));
      next = (res.body as Page).next_cursor;
    } while (next);
    expect(seen).toEqual([2400, 2, 1]);
  });

  it('answers 405 for other methods', async () => {
    expectError(
      await call(svc.baseUrl, 'DELETE', '/api/telemetry/metrics', { token }),
      405,
      'method_not_allowed',
    );
  });
});
