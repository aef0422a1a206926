import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn } from '../../../test-support/api-client';
import { testsOnClickHouse } from '../../../test-support/test-clickhouse';
import { startService, type RunningService } from '../../../test-support/start-service';
import {
  NATIVE,
  T0,
  createTenant,
  idCounts,
  ingest,
  issueItem,
  logItem,
  nativeBody,
  spanItem,
  type NativeCounts,
  type Tenant,
} from '../../../test-support/telemetry';
import { clickhouseExtras } from '../../clickhouse-store';

/**
 * Retention on the ClickHouse tier: each item is deleted once its plan's retention has passed
 * since it happened, on the service's clock, with its id (a re-send is stored again) and its
 * share of the log catalog; a longer plan's items stay. Runs where the suite's telemetry is in
 * ClickHouse (`npm run test:clickhouse`).
 */

const DAY = 86_400_000;
const onClickHouse = testsOnClickHouse();

describe.skipIf(!onClickHouse)('retention of telemetry in ClickHouse', () => {
  let svc: RunningService<false>;
  let free: Tenant;
  let scale: Tenant;
  const items = () => ({
    logs: [logItem({ attributes: { user: { plan: 'free' } } })],
    issues: [issueItem()],
    trace_spans: [spanItem()],
  });
  const freeItems = items();
  const scaleItems = items();

  beforeAll(async () => {
    svc = await startService();
    free = await createTenant(svc, { tier: 'free', password: 'retention-free-1' });
    scale = await createTenant(svc, { tier: 'scale', password: 'retention-scale-1' });
    for (const [t, body] of [
      [free, freeItems],
      [scale, scaleItems],
    ] as const) {
      const res = await ingest(svc, NATIVE, t.ingestKey, nativeBody(body));
      expect(res.status, res.text).toBe(200);
    }
  }, 60_000);
  afterAll(async () => {
    await svc?.close();
  });

  const logsOf = async (t: Tenant) => {
    const { accessToken } = await signIn(svc.baseUrl, t.email, t.password);
    const since = encodeURIComponent(new Date(Date.parse(T0) - DAY).toISOString());
    const list = await call(
      svc.baseUrl,
      'GET',
      `/api/logs?project_id=${t.projectId}&since=${since}`,
      {
        token: accessToken,
      },
    );
    const catalog = await call(
      svc.baseUrl,
      'GET',
      `/api/logs/attributes?project_id=${t.projectId}&since=${since}`,
      { token: accessToken },
    );
    return {
      logs: (list.body as { id: string }[]).map((l) => l.id),
      paths: (catalog.body as { attributes: { path: string }[] }).attributes.map((a) => a.path),
    };
  };

  it('keeps everything within every plan’s retention', async () => {
    const store = clickhouseExtras(svc.deps.store);
    if (!store) throw new Error('not a ClickHouse store');
    svc.clock.set(Date.parse(T0) + 13 * DAY);
    await store.expireTelemetry(svc.clock.now());
    expect(await logsOf(free)).toEqual({ logs: [freeItems.logs[0]?.id], paths: ['/user/plan'] });
  });

  it('deletes a plan’s items past its retention, ids and catalog included, and keeps longer plans’', async () => {
    const store = clickhouseExtras(svc.deps.store);
    if (!store) throw new Error('not a ClickHouse store');
    svc.clock.set(Date.parse(T0) + 15 * DAY);
    const deleted = await store.expireTelemetry(svc.clock.now());
    // The free plan's log, occurrence and span (with its trace's part), and their three
    // ledger ids.
    expect(deleted).toMatchObject({
      logs: 1,
      issue_occurrences: 1,
      spans: 1,
      trace_parts: 1,
      accepted_ids: 3,
    });
    expect(await logsOf(free)).toEqual({ logs: [], paths: [] });
    const traces = (t: Tenant) =>
      svc.deps.store.traces.discover({
        projectIds: [t.projectId],
        serviceName: null,
        release: null,
        environment: null,
        status: null,
        since: null,
        minDurationMs: null,
        after: null,
        limit: 10,
      });
    expect(await traces(free)).toEqual([]);
    expect(await traces(scale)).toHaveLength(1);
    for (const [table, ids] of [
      ['logs', freeItems.logs],
      ['issue_occurrences', freeItems.issues],
      ['spans', freeItems.trace_spans],
    ] as const)
      expect(await idCounts(svc, table, free.projectId, [ids[0]?.id ?? ''])).toEqual([0]);
    expect(await logsOf(scale)).toEqual({ logs: [scaleItems.logs[0]?.id], paths: ['/user/plan'] });

    // Gone means gone: the same log sent again is stored again, not "already accepted".
    const again = await ingest(svc, NATIVE, free.ingestKey, nativeBody({ logs: freeItems.logs }));
    expect(again.body as NativeCounts).toMatchObject({ logs: 1, already_accepted: 0 });
  });
});
