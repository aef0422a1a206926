import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, signIn } from '../../test-support/api-client';
import {
  createTestClock,
  startService,
  type RunningService,
} from '../../test-support/start-service';
import {
  createTenant,
  ingest,
  issueItem,
  logItem,
  NATIVE,
  nativeBody,
  type Tenant,
} from '../../test-support/telemetry';

type Svc = RunningService<true>;
type Bucket = {
  period_start: string;
  period_end: string;
  usage: { events: number; bytes: number; projects: number };
  by_project: { project_id: string; events: number; bytes: number }[];
  by_stream: { kind: string; events: number; bytes: number }[];
};
type History = {
  interval: string;
  period_start: string;
  period_end: string;
  current: { period_start: string; usage: { events: number; projects: number } } & Record<
    string,
    unknown
  >;
  buckets: Bucket[];
};

const fixRequest = { code: 'fix_request', target: 'request' };

describe('GET /api/account/usage/history', () => {
  let svc: Svc;
  let tenant: Tenant;
  let token = '';
  let session = '';
  const history = async (query = '', opts: { token?: string; session?: string } = { token }) => {
    const res = await call(svc.baseUrl, 'GET', `/api/account/usage/history${query}`, opts);
    expect(res.status, res.text).toBe(200);
    return res.body as History;
  };

  beforeAll(async () => {
    // Usage is counted when received, so the clock walks forward through the months.
    const clock = createTestClock(Date.parse('2024-12-30T10:00:00Z'));
    svc = await startService({ demo: true, clock });
    tenant = await createTenant(svc, { tier: 'pro', password: 'tenant-password' });
    const send = (n: number) =>
      ingest(
        svc,
        NATIVE,
        tenant.ingestKey,
        nativeBody({ issues: Array.from({ length: n }, () => issueItem()) }),
      );
    expect((await send(2)).status).toBe(200); // Monday 30 December 2024
    clock.set(Date.parse('2025-01-15T12:00:00Z'));
    expect((await send(3)).status).toBe(200);
    clock.set(Date.parse('2025-03-02T23:59:59Z')); // Sunday
    expect((await send(4)).status).toBe(200);
    clock.set(Date.parse('2025-03-03T09:00:00Z')); // Monday
    expect(
      (await ingest(svc, NATIVE, tenant.ingestKey, nativeBody({ logs: [logItem()] }))).status,
    ).toBe(200);
    const s = await signIn(svc.baseUrl, tenant.email, tenant.password);
    token = s.accessToken;
    session = s.session;
  });
  afterAll(() => svc.close());

  it('monthly by default: 12 months from the 1st, oldest first, zero-filled, the last the current month', async () => {
    const h = await history();
    expect(h.interval).toBe('monthly');
    expect(h.buckets).toHaveLength(12);
    expect(h.period_start).toBe('2024-04-01T00:00:00.000Z');
    expect(h.period_end).toBe('2025-04-01T00:00:00.000Z');
    expect(h.buckets.map((b) => b.period_start.slice(0, 7))).toEqual([
      '2024-04',
      '2024-05',
      '2024-06',
      '2024-07',
      '2024-08',
      '2024-09',
      '2024-10',
      '2024-11',
      '2024-12',
      '2025-01',
      '2025-02',
      '2025-03',
    ]);
    expect(h.buckets.map((b) => b.usage.events)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 2, 3, 0, 5]);
    const zero = h.buckets[0]!;
    expect(zero.usage).toEqual({ events: 0, bytes: 0, projects: 0 });
    expect(zero.by_project).toEqual([{ project_id: tenant.projectId, events: 0, bytes: 0 }]);
    expect(zero.by_stream).toHaveLength(5);
    const last = h.buckets[11]!;
    expect(last.period_end).toBe('2025-04-01T00:00:00.000Z');
    expect(last.usage.projects).toBe(1);
    expect(last.by_stream.find((s) => s.kind === 'issues')?.events).toBe(4);
    expect(last.by_stream.find((s) => s.kind === 'logs')?.events).toBe(1);
    // `current` is the complete account usage response for the current period.
    expect(h.current).toMatchObject({
      period_start: '2025-03-01T00:00:00.000Z',
      reset_at: '2025-04-01T00:00:00.000Z',
      state: 'ok',
      usage: { events: 5, projects: 1 },
    });
    expect(h.current).not.toHaveProperty('sdk_dropped_events');
    expect(await history('?interval=monthly')).toEqual(h);
  });

  it('daily: 30 days from 00:00 UTC ending today', async () => {
    const h = await history('?interval=daily');
    expect(h.buckets).toHaveLength(30);
    expect(h.buckets[0]!.period_start).toBe('2025-02-02T00:00:00.000Z');
    expect(h.buckets[29]!.period_start).toBe('2025-03-03T00:00:00.000Z');
    expect(h.buckets[29]!.period_end).toBe('2025-03-04T00:00:00.000Z');
    expect(h.buckets[28]!.usage.events).toBe(4);
    expect(h.buckets[29]!.usage.events).toBe(1);
    expect(h.buckets.slice(0, 28).every((b) => b.usage.events === 0)).toBe(true);
  });

  it('weekly: 12 weeks starting Monday 00:00 UTC; Sunday is the end of the week before', async () => {
    const h = await history('?interval=weekly');
    expect(h.buckets).toHaveLength(12);
    for (const b of h.buckets) expect(new Date(b.period_start).getUTCDay()).toBe(1);
    expect(h.buckets[11]!.period_start).toBe('2025-03-03T00:00:00.000Z');
    expect(h.buckets[11]!.usage.events).toBe(1);
    expect(h.buckets[10]!.period_start).toBe('2025-02-24T00:00:00.000Z');
    expect(h.buckets[10]!.usage.events).toBe(4);
    expect(h.buckets[4]!.period_start).toBe('2025-01-13T00:00:00.000Z');
    expect(h.buckets[4]!.usage.events).toBe(3);
    expect(h.buckets[2]!.period_start).toBe('2024-12-30T00:00:00.000Z');
    expect(h.buckets[2]!.usage.events).toBe(2);
  });

  it('yearly: 5 years from 1 January', async () => {
    const h = await history('?interval=yearly');
    expect(h.buckets.map((b) => b.period_start)).toEqual([
      '2021-01-01T00:00:00.000Z',
      '2022-01-01T00:00:00.000Z',
      '2023-01-01T00:00:00.000Z',
      '2024-01-01T00:00:00.000Z',
      '2025-01-01T00:00:00.000Z',
    ]);
    expect(h.buckets.map((b) => b.usage.events)).toEqual([0, 0, 0, 2, 8]);
    expect(h.period_end).toBe('2026-01-01T00:00:00.000Z');
  });

  it.each(['hourly', 'Monthly', 'month', ''])(
    'interval=%s is 422 validation_failed naming the allowed values',
    async (v) => {
      const res = await call(svc.baseUrl, 'GET', `/api/account/usage/history?interval=${v}`, {
        token,
      });
      expectError(res, 422, 'validation_failed', fixRequest);
      const next = (res.body as { next: string }).next;
      for (const allowed of ['daily', 'weekly', 'monthly', 'yearly'])
        expect(next).toContain(allowed);
    },
  );

  it.each(['response_version=1', 'since=7d', 'interval=daily&project_id=x'])(
    'any other query key (%s) is 422 validation_failed',
    async (q) => {
      const res = await call(svc.baseUrl, 'GET', `/api/account/usage/history?${q}`, { token });
      expectError(res, 422, 'validation_failed', fixRequest);
    },
  );

  it('without a credential is 401 unauthorized (never an empty graph)', async () => {
    const res = await call(svc.baseUrl, 'GET', '/api/account/usage/history');
    expectError(res, 401, 'unauthorized', { code: 'sign_in', target: 'auth' });
    expect(res.body).not.toHaveProperty('buckets');
  });

  it('accepts the browser session cookie alone', async () => {
    const h = await history('?interval=weekly', { session });
    expect(h.buckets).toHaveLength(12);
  });
});
