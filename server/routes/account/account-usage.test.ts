import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultPlanQuotas } from '../../domain/plans';
import { newId } from '../../domain/secrets';
import { call, expectError, signIn, type ApiResponse } from '../../test-support/api-client';
import { startService, type RunningService } from '../../test-support/start-service';
import {
  createTenant,
  ingest,
  issueItem,
  logItem,
  metricItem,
  NATIVE,
  nativeBody,
  SDK,
  sdkBody,
  sdkEvent,
  type Tenant,
} from '../../test-support/telemetry';

type Svc = RunningService<true>;
type Usage = {
  period_start: string;
  period_end: string;
  reset_at: string;
  plan: { tier: string; status: string };
  limits: Record<string, number | null>;
  usage: { events: number; bytes: number; projects: number };
  state: string;
  warning_threshold: number;
  percent_used: number;
  warning: boolean;
  blocked: boolean;
  limit: string | null;
  next: string;
  next_action: Record<string, unknown>;
  by_project: { project_id: string; events: number; bytes: number }[];
  by_stream: { kind: string; events: number; bytes: number }[];
  sdk_dropped_events?: { project_id: string; reason: string; events: number }[];
};

const RESET = '2025-04-01T00:00:00.000Z';

const getUsage = async (svc: Svc, token: string, query = '') => {
  const res = await call(svc.baseUrl, 'GET', `/api/account/usage${query}`, { token });
  expect(res.status, res.text).toBe(200);
  return res.body as Usage;
};

const issues = (n: number) => nativeBody({ issues: Array.from({ length: n }, () => issueItem()) });

function expectState(u: Usage, state: string, limit: string | null) {
  expect(u.state).toBe(state);
  expect(u.limit).toBe(limit);
  expect(u.warning).toBe(state === 'warning');
  expect(u.blocked).toBe(state === 'blocked');
  const action = {
    ok: { code: 'continue_sending_telemetry', target: 'telemetry_ingest' },
    warning: { code: 'reduce_usage_or_upgrade', target: 'pricing' },
    blocked: { code: 'wait_until_reset_or_upgrade', target: 'pricing' },
  }[state];
  expect(u.next_action).toEqual({ ...action, state, limit, reset_at: RESET });
  expect(u.next).not.toBe('');
}

describe('GET /api/account/usage', () => {
  let svc: Svc;
  let pro: Tenant;
  let scale: Tenant;
  let proToken = '';
  let scaleToken = '';

  beforeAll(async () => {
    svc = await startService({
      demo: true,
      config: {
        planQuotas: {
          ...defaultPlanQuotas,
          pro: { ...defaultPlanQuotas.pro, issue_events: 10, log_bytes: 1000 },
          scale: { ...defaultPlanQuotas.scale, issue_events: 10, metric_bytes: 0 },
        },
      },
    });
    pro = await createTenant(svc, { tier: 'pro', password: 'tenant-password' });
    scale = await createTenant(svc, { tier: 'scale', password: 'tenant-password' });
    proToken = (await signIn(svc.baseUrl, pro.email, pro.password)).accessToken;
    scaleToken = (await signIn(svc.baseUrl, scale.email, scale.password)).accessToken;
  });
  afterAll(() => svc.close());

  it('answers the full shape for an account without usage: zero rows for every owned project', async () => {
    const u = await getUsage(svc, svc.creds.account_token);
    const projectIds = svc.creds.projects.map((p) => p.id);
    expect(u).toMatchObject({
      period_start: '2025-03-01T00:00:00.000Z',
      period_end: RESET,
      reset_at: RESET,
      plan: { tier: 'pro', status: 'active' },
      limits: { events: null, bytes: null, projects: null, retention_days: 30 },
      usage: { events: 0, bytes: 0, projects: 3 },
      warning_threshold: 0.8,
      percent_used: 0,
    });
    expectState(u, 'ok', null);
    expect(u.by_project).toHaveLength(3);
    expect(new Set(u.by_project.map((p) => p.project_id))).toEqual(new Set(projectIds));
    for (const p of u.by_project)
      expect(p).toEqual({ project_id: p.project_id, events: 0, bytes: 0 });
    expect(u.by_stream).toEqual(
      ['issues', 'logs', 'traces', 'actions', 'metrics'].map((kind) => ({
        kind,
        events: 0,
        bytes: 0,
      })),
    );
    expect(u).not.toHaveProperty('sdk_dropped_events');
  });

  it('a member who owns nothing sees no projects (usage belongs to the owner)', async () => {
    const chen = await signIn(svc.baseUrl, 'chen@lookout.dev', 'lookout-demo');
    const u = await getUsage(svc, chen.accessToken);
    expect(u.usage).toEqual({ events: 0, bytes: 0, projects: 0 });
    expect(u.by_project).toEqual([]);
    expect(u.plan).toEqual({ tier: 'free', status: 'free' });
  });

  it('moves ok → warning → blocked with real ingestion, and blocked matches the 429', async () => {
    await ingest(svc, NATIVE, pro.ingestKey, issues(7));
    let u = await getUsage(svc, proToken);
    expectState(u, 'ok', null);
    expect(u.percent_used).toBe(70);
    expect(u.plan).toEqual({ tier: 'pro', status: 'active' });
    expect(u.limits.retention_days).toBe(30);

    await ingest(svc, NATIVE, pro.ingestKey, issues(1));
    u = await getUsage(svc, proToken);
    expectState(u, 'warning', 'events');
    expect(u.percent_used).toBe(80);

    expect((await ingest(svc, NATIVE, pro.ingestKey, issues(2))).status).toBe(200);
    u = await getUsage(svc, proToken);
    expectState(u, 'blocked', 'events');
    expect(u.percent_used).toBe(100);
    const refused = await ingest(svc, NATIVE, pro.ingestKey, issues(1));
    expectError(refused, 429, 'usage_limit_exceeded', {
      code: 'wait_until_reset_or_upgrade',
      target: 'pricing',
    });
    expect((refused.body as { reset_at: string }).reset_at).toBe(u.reset_at);
    // Counters: totals, per stream and per project agree with what was stored.
    expect(u.usage.events).toBe(10);
    expect(u.by_stream.find((s) => s.kind === 'issues')?.events).toBe(10);
    expect(u.by_project).toEqual([{ project_id: pro.projectId, events: 10, bytes: u.usage.bytes }]);
  });

  it('names the blocked limit before a warning one (events blocked, bytes warning)', async () => {
    // 850+ billed bytes of the 1,000 log bytes: a warning on bytes beside blocked events.
    const big = nativeBody({ logs: [logItem({ message: 'x'.repeat(850), attributes: {} })] });
    expect((await ingest(svc, NATIVE, pro.ingestKey, big)).status).toBe(200);
    const u = await getUsage(svc, proToken);
    expect(u.by_stream.find((s) => s.kind === 'logs')?.bytes).toBeGreaterThanOrEqual(800);
    expectState(u, 'blocked', 'events');
  });

  it('names the blocked limit before a warning one (bytes blocked, events warning)', async () => {
    let u = await getUsage(svc, scaleToken);
    // The scale test quota allows 0 metric bytes: used up from the start.
    expectState(u, 'blocked', 'bytes');
    await ingest(svc, NATIVE, scale.ingestKey, issues(9));
    u = await getUsage(svc, scaleToken);
    expectState(u, 'blocked', 'bytes');
    expect(u.plan.tier).toBe('scale');
    const refused = await ingest(
      svc,
      SDK,
      scale.ingestKey,
      sdkBody([sdkEvent('metric', metricItem())]),
    );
    expect((refused.body as { limit: string }).limit).toBe('metric_bytes');
  });

  it('lists a zero row for every owned project, matched by id', async () => {
    const second = newId();
    await svc.deps.store.projects.create({
      id: second,
      organizationId: pro.organizationId,
      slug: `second-${second.slice(0, 8)}`,
      name: 'Second',
      createdAt: svc.clock.now(),
    });
    const u = await getUsage(svc, proToken);
    expect(u.usage.projects).toBe(2);
    const rows = new Map(u.by_project.map((p) => [p.project_id, p]));
    expect(rows.get(second)).toEqual({ project_id: second, events: 0, bytes: 0 });
    expect(rows.get(pro.projectId)?.events).toBe(11);
  });

  it('response_version=2 adds sdk_dropped_events: [] without reports, rows per project and reason', async () => {
    const v1 = await getUsage(svc, svc.creds.account_token, '?response_version=1');
    expect(v1).not.toHaveProperty('sdk_dropped_events');
    let v2 = await getUsage(svc, svc.creds.account_token, '?response_version=2');
    expect(v2.sdk_dropped_events).toEqual([]);

    const project = svc.creds.projects[0]!;
    const batch = sdkBody([sdkEvent('log', logItem())], {
      dropped_events: [
        { reason: 'queue_overflow', events: 5 },
        { reason: 'network_error', events: 2 },
        { reason: 'queue_overflow', events: 1 },
      ],
    });
    expect((await ingest(svc, SDK, project.ingest_key, batch)).status).toBe(200);
    // A retry of the same batch stores nothing new and does not count its report again.
    expect((await ingest(svc, SDK, project.ingest_key, batch)).status).toBe(200);
    v2 = await getUsage(svc, svc.creds.account_token, '?response_version=2');
    expect(v2.sdk_dropped_events).toEqual(
      expect.arrayContaining([
        { project_id: project.id, reason: 'network_error', events: 2 },
        { project_id: project.id, reason: 'queue_overflow', events: 6 },
      ]),
    );
    expect(v2.sdk_dropped_events).toHaveLength(2);
    // Dropped events are not usage: only the one delivered log counts.
    expect(v2.usage.events).toBe(1);
    expect(v2.by_stream.find((s) => s.kind === 'logs')?.events).toBe(1);
  });

  it('refuses a bad drop report with 422 and stores nothing', async () => {
    const project = svc.creds.projects[1]!;
    const res = await ingest(
      svc,
      SDK,
      project.ingest_key,
      sdkBody([sdkEvent('log', logItem())], {
        dropped_events: [{ reason: 'Bad Reason', events: 0 }],
      }),
    );
    expectError(res, 422, 'validation_failed');
  });

  it.each(['0', '3', 'two', ''])('response_version=%s is 422 validation_failed', async (v) => {
    const res = await call(svc.baseUrl, 'GET', `/api/account/usage?response_version=${v}`, {
      token: proToken,
    });
    expectError(res, 422, 'validation_failed', { code: 'fix_request', target: 'request' });
  });

  it('an unknown query key is 422 validation_failed', async () => {
    const res = await call(svc.baseUrl, 'GET', '/api/account/usage?project_id=x', {
      token: proToken,
    });
    expectError(res, 422, 'validation_failed', { code: 'fix_request', target: 'request' });
  });

  it('without a credential is 401 unauthorized, never zero usage', async () => {
    const res: ApiResponse = await call(svc.baseUrl, 'GET', '/api/account/usage');
    expectError(res, 401, 'unauthorized', { code: 'sign_in', target: 'auth' });
    expect(res.body).not.toHaveProperty('usage');
  });

  it.each(['/api/account/usage', '/api/account/usage/history', '/api/account/subscription'])(
    'POST %s is 405 method_not_allowed naming GET',
    async (path) => {
      const res = await call(svc.baseUrl, 'POST', path, { token: proToken, json: {} });
      expect(res.status, res.text).toBe(405);
      expect(res.body).toMatchObject({ code: 'method_not_allowed' });
      expect((res.body as { next: string }).next).toContain('GET');
    },
  );

  it('accepts the browser session cookie alone', async () => {
    const s = await signIn(svc.baseUrl, pro.email, pro.password);
    const res = await call(svc.baseUrl, 'GET', '/api/account/usage?response_version=2', {
      session: s.session,
    });
    expect(res.status, res.text).toBe(200);
    expect((res.body as Usage).plan.tier).toBe('pro');
  });

  it('resets at reset_at: the next period starts from zero', async () => {
    svc.clock.set(Date.parse(RESET));
    const s = await signIn(svc.baseUrl, pro.email, pro.password);
    const u = await getUsage(svc, s.accessToken);
    expect(u.period_start).toBe(RESET);
    expect(u.usage.events).toBe(0);
    expectStateAt(u, 'ok');
    expect((await ingest(svc, NATIVE, pro.ingestKey, issues(1))).status).toBe(200);
  });
});

function expectStateAt(u: Usage, state: string) {
  expect(u.state).toBe(state);
  expect(u.next_action.reset_at).toBe('2025-05-01T00:00:00.000Z');
}
