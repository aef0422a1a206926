import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, type ApiResponse } from '../../test-support/api-client';
import { startService, type RunningService } from '../../test-support/start-service';
import {
  NATIVE,
  actionItem,
  at,
  createTenant,
  ingest,
  nativeBody,
  type Tenant,
} from '../../test-support/telemetry';

type Action = Record<string, unknown> & { id: string; name: string };
type Page = { actions: Action[]; next_cursor: { time: string; id: string } | null };

const names = (res: ApiResponse) => (res.body as Action[]).map((a) => a.name);

describe('GET /api/telemetry/actions', () => {
  let svc: RunningService<true>;
  let token = '';
  let projectA = '';
  let projectB = '';
  let tenant: Tenant;
  const get = (query = '') =>
    call(svc.baseUrl, 'GET', `/api/telemetry/actions${query ? `?${query}` : ''}`, { token });

  const traced = actionItem({
    name: 'place_order',
    occurred_at: at(4000),
    trace_id: 'a'.repeat(32),
    span_id: 'b'.repeat(16),
    session_id: undefined,
    distinct_id: 'user-2',
  });

  beforeAll(async () => {
    svc = await startService({ demo: true });
    token = svc.creds.account_token;
    const [a, b] = svc.creds.projects;
    projectA = a?.id ?? '';
    projectB = b?.id ?? '';
    const send = async (key: string, body: Record<string, unknown>) => {
      const res = await ingest(svc, NATIVE, key, nativeBody(body));
      expect(res.status, res.text).toBe(200);
    };
    await send(a?.ingest_key ?? '', {
      actions: [
        actionItem({ name: 'home', kind: 'page_view', occurred_at: at(1000) }),
        actionItem({ name: 'product', kind: 'page_view', occurred_at: at(2000) }),
        traced,
      ],
    });
    await send(b?.ingest_key ?? '', {
      release: 'app@5.4.1',
      environment: 'staging',
      service_name: 'shop-ios',
      actions: [actionItem({ name: 'add_to_cart', kind: 'screen_view', occurred_at: at(3000) })],
    });
    tenant = await createTenant(svc);
    await send(tenant.ingestKey, { actions: [actionItem({ name: 'elsewhere' })] });
  });
  afterAll(async () => {
    await svc.close();
  });

  it('lists readable actions newest first as Action records', async () => {
    const res = await get();
    expect(res.status, res.text).toBe(200);
    expect(names(res)).toEqual(['place_order', 'add_to_cart', 'product', 'home']);
    expect((res.body as Action[])[0]).toEqual({
      id: traced.id,
      project_id: projectA,
      name: 'place_order',
      kind: 'interaction',
      distinct_id: 'user-2',
      session_id: null,
      occurred_at: at(4000),
      properties: { plan: 'pro' },
      environment: 'production',
      release: 'shop@1.0.0',
      service_name: 'checkout-api',
      trace_id: 'a'.repeat(32),
      span_id: 'b'.repeat(16),
      next_action: { code: 'inspect_trace', target: 'trace_summary' },
    });
    const untraced = (res.body as Action[])[1];
    expect(untraced).not.toHaveProperty('span_id');
    expect(untraced).toMatchObject({
      trace_id: null,
      session_id: 'session-1',
      next_action: { code: 'inspect_related_logs', target: 'telemetry_logs' },
    });
  });

  it('filters by exact name, distinct_id, service, release, environment and since', async () => {
    expect(names(await get('name=home'))).toEqual(['home']);
    expect(names(await get('name=hom'))).toEqual([]);
    expect(names(await get('distinct_id=user-2'))).toEqual(['place_order']);
    expect(names(await get('service_name=shop-ios&release=app@5.4.1&environment=staging'))).toEqual(
      ['add_to_cart'],
    );
    expect(names(await get(`since=${at(2000)}`))).toEqual([
      'place_order',
      'add_to_cart',
      'product',
    ]);
    for (const q of ['name=', 'distinct_id=%20', `until=${at(0)}`, 'limit=0', 'since=yesterday'])
      expectError(await get(q), 422, 'validation_failed');
  });

  it('reads the project scope like every list', async () => {
    expect(await get(`project_id=${tenant.projectId}`)).toMatchObject({ status: 200, body: [] });
    expect(names(await get(`project_id=${projectB}`))).toEqual(['add_to_cart']);
    expectError(await get(`project_ids=${projectA},${tenant.projectId}`), 404, 'not_found');
    expect(names(await get(`project_ids=${projectA},${projectB}`))).toHaveLength(4);
  });

  it('pages with cursor_time and cursor_id', async () => {
    const seen: string[] = [];
    let next: Page['next_cursor'] = null;
    do {
      const res = await get(
        `pagination=cursor&limit=3${next ? `&cursor_time=${next.time}&cursor_id=${next.id}` : ''}`,
      );
      expect(res.status, res.text).toBe(200);
      seen.push(...(res.body as Page).actions.map((a) => a.name));
      next = (res.body as Page).next_cursor;
    } while (next);
    expect(seen).toEqual(['place_order', 'add_to_cart', 'product', 'home']);
    expectError(await get(`pagination=cursor&cursor_time=${at(0)}`), 422, 'validation_failed');
    expectError(await get(`cursor_time=${at(0)}&cursor_id=${traced.id}`), 422, 'validation_failed');
  });

  it('answers 405 for other methods', async () => {
    expectError(
      await call(svc.baseUrl, 'POST', '/api/telemetry/actions', { token }),
      405,
      'method_not_allowed',
    );
  });
});
