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
  usageOf,
  type Tenant,
} from '../../test-support/telemetry';

type StreamVolume = { events: number[]; bytes: number[] };
type Body = Record<string, unknown> & {
  buckets: string[];
  streams: Record<'issues' | 'logs' | 'traces' | 'actions' | 'metrics', StreamVolume>;
};

const RANGE = 'since=2025-03-03T08:00:00Z&until=2025-03-03T09:00:00Z&interval=15m';
const errorText = (res: ApiResponse) => (res.body as { error: string }).error;

describe('GET /api/telemetry/summary/volume', () => {
  let svc: RunningService<true>;
  let token = '';
  let projectA = '';
  let tenant: Tenant;
  const get = (query: string) =>
    call(svc.baseUrl, 'GET', `/api/telemetry/summary/volume?${query}`, { token });

  beforeAll(async () => {
    svc = await startService({ demo: true });
    token = svc.creds.account_token;
    const [a, b] = svc.creds.projects;
    projectA = a?.id ?? '';
    const keyA = a?.ingest_key ?? '';
    const res = await ingest(
      svc,
      NATIVE,
      keyA,
      nativeBody({
        issues: [issueItem({ occurred_at: at(0) }), issueItem({ occurred_at: at(20 * 60_000) })],
        logs: [logItem({ occurred_at: at(1000) }), logItem({ occurred_at: at(2000) })],
        trace_spans: [spanItem({ started_at: at(50 * 60_000) })],
        actions: [actionItem({ occurred_at: at(16 * 60_000) })],
      }),
    );
    expect(res.status, res.text).toBe(200);
    const web = await ingest(
      svc,
      NATIVE,
      keyA,
      nativeBody({ service_name: 'web', logs: [logItem({ occurred_at: at(3000) })] }),
    );
    expect(web.status).toBe(200);
    const sdk = await ingest(
      svc,
      SDK,
      keyA,
      sdkBody([sdkEvent('metric', metricItem({ occurred_at: at(59 * 60_000) }))]),
    );
    expect(sdk.status).toBe(200);
    await ingest(svc, NATIVE, b?.ingest_key ?? '', nativeBody({ logs: [logItem()] }));
    tenant = await createTenant(svc);
  });
  afterAll(async () => {
    await svc.close();
  });

  it('counts events and bytes per stream and bucket; an empty bucket is 0', async () => {
    const res = await get(`project_id=${projectA}&${RANGE}`);
    expect(res.status, res.text).toBe(200);
    const body = res.body as Body;
    expect(body).toMatchObject({
      schema_version: 1,
      interval: '15m',
      bucket_seconds: 900,
      since: '2025-03-03T08:00:00.000Z',
      until: '2025-03-03T09:00:00.000Z',
      buckets: [
        '2025-03-03T08:00:00.000Z',
        '2025-03-03T08:15:00.000Z',
        '2025-03-03T08:30:00.000Z',
        '2025-03-03T08:45:00.000Z',
      ],
    });
    expect(Object.fromEntries(Object.entries(body.streams).map(([k, v]) => [k, v.events]))).toEqual(
      {
        issues: [1, 1, 0, 0],
        logs: [3, 0, 0, 0],
        traces: [0, 0, 0, 1],
        actions: [0, 1, 0, 0],
        metrics: [0, 0, 0, 1],
      },
    );
    // Bytes are the usage counters' bytes, spread over the buckets.
    const usage = await usageOf(svc, projectA);
    for (const [stream, v] of Object.entries(body.streams)) {
      expect(
        v.bytes.reduce((x, y) => x + y, 0),
        stream,
      ).toBe(usage[stream]?.bytes);
      expect(
        v.bytes.every((n, i) => (n === 0) === (v.events[i] === 0)),
        stream,
      ).toBe(true);
    }
  });

  it('reads the hourly rollup for whole-hour intervals with the same totals', async () => {
    const hourly = (await get(`project_id=${projectA}&since=2025-03-03T08:30:00Z&interval=1h`))
      .body as Body;
    expect(hourly.buckets).toEqual(['2025-03-03T08:00:00.000Z']);
    expect(hourly.streams.logs.events).toEqual([3]);
    expect(hourly.streams.traces.events).toEqual([1]);
  });

  it('filters by exact service, release and environment, and reads every readable project without project_id', async () => {
    const web = (await get(`project_id=${projectA}&${RANGE}&service_name=web`)).body as Body;
    expect(web.streams.logs.events).toEqual([1, 0, 0, 0]);
    expect(web.streams.issues.events).toEqual([0, 0, 0, 0]);
    const staging = (
      await get(`project_id=${projectA}&${RANGE}&environment=staging&release=shop@1.0.0`)
    ).body as Body;
    expect(staging.streams.logs.events).toEqual([0, 0, 0, 0]);
    const all = (await get(RANGE)).body as Body;
    // Project B’s log too.
    expect(all.streams.logs.events).toEqual([4, 0, 0, 0]);
    const allDay = (await get('since=2025-03-03T00:00:00Z&interval=1d')).body as Body;
    expect(allDay.streams.logs.events).toEqual([4]);
  });

  it('refuses an until in the future, other versions, long ranges and too many buckets', async () => {
    const future = await get(`project_id=${projectA}&since=1h&until=2025-03-03T09:00:00.001Z`);
    expectError(future, 422, 'validation_failed');
    expect(errorText(future)).toBe('until must not be in the future');
    expect((await get('since=1h&until=2025-03-03T09:00:00Z&response_version=1')).status).toBe(200);
    for (const q of [
      'since=1h&response_version=2',
      'since=1h&response_version=0',
      'until=2025-03-03T08:00:00Z',
      'since=32d',
      'since=24h&interval=1m',
      'since=1h&interval=30m',
      'since=1h&service_name=',
      'since=1h&project_id=nope',
      `since=1h&project_ids=${projectA},${tenant.projectId}`,
      'since=1h&group_by=release',
    ])
      expectError(await get(q), 422, 'validation_failed');
    expect(errorText(await get('since=24h&interval=1m'))).toContain('at most 500');
    expect((await get('since=31d&interval=6h')).status).toBe(200);
  });

  it('answers 404 for a project the account cannot read, and 405 for other methods', async () => {
    expectError(await get(`project_id=${tenant.projectId}&since=1h`), 404, 'not_found');
    expectError(
      await call(svc.baseUrl, 'POST', '/api/telemetry/summary/volume', { token }),
      405,
      'method_not_allowed',
    );
  });
});
