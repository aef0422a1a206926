import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, type ApiResponse } from '../../test-support/api-client';
import { startService, type RunningService } from '../../test-support/start-service';
import {
  NATIVE,
  SDK,
  actionItem,
  at,
  createTenant,
  ingest,
  issueItem,
  logItem,
  metricItem,
  nativeBody,
  sdkBody,
  sdkEvent,
  spanItem,
  type NativeCounts,
  type Tenant,
} from '../../test-support/telemetry';

type Row = Record<string, unknown> & {
  project_id: string;
  release: string;
  environment: string;
  service_name: string;
  last_seen_at: string;
};
type Cursor = {
  time: string;
  project_id: string;
  release: string;
  environment: string;
  service_name: string;
};
type Page = { releases: Row[]; next_cursor: Cursor | null };

const INCOMPLETE = 'all release cursor fields must be sent together';
const errorText = (res: ApiResponse) => (res.body as { error: string }).error;
const keyOf = (r: Row) => `${r.release}/${r.environment}/${r.service_name}`;
const keys = (res: ApiResponse) => (res.body as Row[]).map(keyOf);
const T = (c: string) => c.repeat(32);
const cursorQuery = (c: Cursor) =>
  `cursor_time=${c.time}&cursor_project_id=${c.project_id}&cursor_release=${encodeURIComponent(c.release)}` +
  `&cursor_environment=${c.environment}&cursor_service_name=${c.service_name}`;

describe('GET /api/telemetry/releases', () => {
  let svc: RunningService<true>;
  let token = '';
  let projectA = '';
  let projectB = '';
  let tenant: Tenant;
  const get = (query = '') =>
    call(svc.baseUrl, 'GET', `/api/telemetry/releases${query ? `?${query}` : ''}`, { token });

  // Project A, shop@1.0.0/production/checkout-api: every kind of telemetry.
  const issue1 = issueItem({ occurred_at: at(0) });
  const issue1Again = issueItem({ occurred_at: at(10) });
  const issue2 = issueItem({
    occurred_at: at(20),
    exception: { type: 'OtherError' },
    message: 'other',
  });
  const t1Ok = spanItem({ trace_id: T('1'), started_at: at(30) });
  const t1Error = spanItem({ trace_id: T('1'), started_at: at(31), status: 'error' });
  const t2Ok = spanItem({ trace_id: T('2'), started_at: at(40) });
  const t3Ok = spanItem({ trace_id: T('3'), started_at: at(50) });
  const t2Error = spanItem({ trace_id: T('2'), started_at: at(41), status: 'error' });
  const staging = { release: 'shop@2.0.0', environment: 'staging' };

  beforeAll(async () => {
    svc = await startService({ demo: true });
    token = svc.creds.account_token;
    const [a, b] = svc.creds.projects;
    projectA = a?.id ?? '';
    projectB = b?.id ?? '';
    const keyA = a?.ingest_key ?? '';
    const send = async (key: string, body: Record<string, unknown>, route = NATIVE) => {
      const res = await ingest(svc, route, key, route === NATIVE ? nativeBody(body) : body);
      expect(res.status, res.text).toBe(200);
      return res.body as NativeCounts;
    };
    await send(keyA, {
      issues: [issue1, issue1Again, issue2],
      logs: [logItem({ occurred_at: at(60) }), logItem({ occurred_at: at(61) })],
      trace_spans: [t1Ok, t2Ok, t3Ok],
      actions: [actionItem({ occurred_at: at(70) })],
    });
    // A later batch turns trace 1 into an error trace.
    await send(keyA, { trace_spans: [t1Error] });
    const metric = sdkEvent('metric', metricItem({ occurred_at: at(80) }));
    await send(keyA, sdkBody([metric]), SDK);
    // Other rows of project A, one kind each, newest last-seen first in this order.
    await send(keyA, {
      service_name: 'web',
      trace_spans: [spanItem({ trace_id: T('4'), started_at: at(1000) })],
    });
    await send(keyA, { ...staging, logs: [logItem({ occurred_at: at(2000) })] });
    await send(keyA, {
      ...staging,
      service_name: 'worker',
      actions: [actionItem({ occurred_at: at(3000) })],
    });
    const stagingMetric = sdkEvent('metric', metricItem({ occurred_at: at(4000) }));
    await send(
      keyA,
      sdkBody([stagingMetric], { context: { ...staging, service_name: 'meter' } }),
      SDK,
    );
    await send(b?.ingest_key ?? '', { logs: [logItem({ occurred_at: at(5000) })] });
    tenant = await createTenant(svc);
    const res = await ingest(svc, NATIVE, tenant.ingestKey, nativeBody({ logs: [logItem()] }));
    expect(res.status).toBe(200);
  });
  afterAll(async () => {
    await svc.close();
  });

  it('lists one row per project, release, environment and service, most recently seen first', async () => {
    const res = await get();
    expect(res.status, res.text).toBe(200);
    const rows = res.body as Row[];
    expect(rows.map((r) => [r.project_id === projectA ? 'A' : 'B', keyOf(r)])).toEqual([
      ['B', 'shop@1.0.0/production/checkout-api'],
      ['A', 'shop@2.0.0/staging/meter'],
      ['A', 'shop@2.0.0/staging/worker'],
      ['A', 'shop@2.0.0/staging/checkout-api'],
      ['A', 'shop@1.0.0/production/web'],
      ['A', 'shop@1.0.0/production/checkout-api'],
    ]);
  });

  it('counts only the row: distinct issue groups, logs, spans, actions, metric samples', async () => {
    const row = (
      await get(`project_id=${projectA}&service_name=checkout-api&environment=production`)
    ).body as Row[];
    expect(row).toEqual([
      {
        project_id: projectA,
        release: 'shop@1.0.0',
        environment: 'production',
        service_name: 'checkout-api',
        issue_count: 2,
        log_count: 2,
        trace_span_count: 4,
        action_count: 1,
        metric_count: 1,
        first_seen_at: at(0),
        last_seen_at: at(80),
        trace_health: {
          status: 'errors_observed',
          trace_count: 3,
          error_trace_count: 1,
          error_rate_basis_points: 3333,
        },
        next_action: { code: 'inspect_release_issues', target: 'telemetry_issues' },
      },
    ]);
  });

  it('counts a re-sent batch once and lets a later span turn a trace into an error trace', async () => {
    const keyA = svc.creds.projects[0]?.ingest_key ?? '';
    const again = await ingest(
      svc,
      NATIVE,
      keyA,
      nativeBody({ issues: [issue1], trace_spans: [t1Ok] }),
    );
    expect((again.body as NativeCounts).already_accepted).toBe(2);
    expect((await ingest(svc, NATIVE, keyA, nativeBody({ trace_spans: [t2Error] }))).status).toBe(
      200,
    );
    const [row] = (await get(`project_id=${projectA}&service_name=checkout-api&release=shop@1.0.0`))
      .body as Row[];
    expect(row).toMatchObject({
      issue_count: 2,
      trace_span_count: 5,
      trace_health: {
        status: 'errors_observed',
        trace_count: 3,
        error_trace_count: 2,
        error_rate_basis_points: 6667,
      },
    });
  });

  it('names the first signal type with data, in the spec order, and trace health per row', async () => {
    const rows = (await get(`project_id=${projectA}`)).body as Row[];
    const byKey = Object.fromEntries(rows.map((r) => [keyOf(r), r]));
    expect(byKey['shop@1.0.0/production/web']).toMatchObject({
      next_action: { code: 'inspect_release_traces', target: 'trace_explorer' },
      trace_health: {
        status: 'no_errors_observed',
        trace_count: 1,
        error_trace_count: 0,
        error_rate_basis_points: 0,
      },
    });
    expect(byKey['shop@2.0.0/staging/checkout-api']).toMatchObject({
      next_action: { code: 'inspect_release_logs', target: 'telemetry_logs' },
      trace_health: {
        status: 'unknown',
        trace_count: 0,
        error_trace_count: 0,
        error_rate_basis_points: 0,
      },
    });
    expect(byKey['shop@2.0.0/staging/worker']?.next_action).toEqual({
      code: 'inspect_release_actions',
      target: 'telemetry_actions',
    });
    expect(byKey['shop@2.0.0/staging/meter']?.next_action).toEqual({
      code: 'inspect_release_metrics',
      target: 'telemetry_metrics',
    });
  });

  it('filters by exact service, release and environment, and since on last_seen_at', async () => {
    expect(keys(await get('release=shop@2.0.0&environment=staging&service_name=worker'))).toEqual([
      'shop@2.0.0/staging/worker',
    ]);
    expect(keys(await get('release=shop@2.0'))).toEqual([]);
    expect(keys(await get(`project_id=${projectA}&since=${at(3000)}`))).toEqual([
      'shop@2.0.0/staging/meter',
      'shop@2.0.0/staging/worker',
    ]);
    for (const q of ['service_name=', 'release=%20', 'environment=', 'since=0h', 'until=' + at(0)])
      expectError(await get(q), 422, 'validation_failed');
  });

  it('reads the project scope like every list', async () => {
    expect(await get(`project_id=${tenant.projectId}`)).toMatchObject({ status: 200, body: [] });
    expectError(await get(`project_ids=${projectA},${tenant.projectId}`), 404, 'not_found');
    const both = (await get(`project_ids=${projectA},${projectB}`)).body as Row[];
    expect(both).toHaveLength(6);
    expectError(
      await get(`project_id=${projectA}&project_ids=${projectA},${projectB}`),
      422,
      'validation_failed',
    );
    expectError(await get('project=x'), 422, 'validation_failed');
  });

  it('pages with the five release cursor fields until next_cursor is null', async () => {
    const seen: string[] = [];
    let next: Cursor | null = null;
    let pages = 0;
    do {
      const res = await get(`pagination=cursor&limit=2${next ? `&${cursorQuery(next)}` : ''}`);
      expect(res.status, res.text).toBe(200);
      const page = res.body as Page;
      seen.push(...page.releases.map(keyOf));
      next = page.next_cursor;
      pages += 1;
    } while (next);
    expect(pages).toBe(3);
    expect(seen).toEqual(keys(await get()));
    const first = (await get('pagination=cursor&limit=1')).body as Page;
    expect(Object.keys(first.next_cursor ?? {}).sort()).toEqual(
      ['environment', 'project_id', 'release', 'service_name', 'time'].sort(),
    );
  });

  it('refuses incomplete and blank release cursors with the exact text', async () => {
    const c: Cursor = {
      time: at(0),
      project_id: projectA,
      release: 'shop@1.0.0',
      environment: 'production',
      service_name: 'web',
    };
    const full = `pagination=cursor&${cursorQuery(c)}`;
    expect((await get(full)).status).toBe(200);
    for (const drop of [
      'cursor_time',
      'cursor_project_id',
      'cursor_release',
      'cursor_environment',
      'cursor_service_name',
    ]) {
      const query = full
        .split('&')
        .filter((p) => !p.startsWith(`${drop}=`))
        .join('&');
      const res = await get(query);
      expectError(res, 422, 'validation_failed');
      expect(errorText(res)).toBe(INCOMPLETE);
    }
    for (const blank of ['cursor_release', 'cursor_environment', 'cursor_service_name']) {
      for (const value of ['', '%20']) {
        const query = full.replace(new RegExp(`${blank}=[^&]*`), `${blank}=${value}`);
        const res = await get(query);
        expectError(res, 422, 'validation_failed');
        expect(errorText(res)).toBe(INCOMPLETE);
      }
    }
    expectError(await get(full.replace('pagination=cursor&', '')), 422, 'validation_failed');
    expectError(await get('pagination=page'), 422, 'validation_failed');
    expectError(
      await get(full.replace(`cursor_time=${at(0)}`, 'cursor_time=yesterday')),
      422,
      'validation_failed',
    );
    expectError(
      await get(full.replace(`cursor_project_id=${projectA}`, 'cursor_project_id=nope')),
      422,
      'validation_failed',
    );
    expectError(await get('pagination=cursor&cursor_id=x'), 422, 'validation_failed');
  });

  it('answers 405 for other methods and 401 without a credential', async () => {
    expectError(
      await call(svc.baseUrl, 'POST', '/api/telemetry/releases', { token }),
      405,
      'method_not_allowed',
    );
    expectError(await call(svc.baseUrl, 'GET', '/api/telemetry/releases'), 401, 'unauthorized');
  });
});
