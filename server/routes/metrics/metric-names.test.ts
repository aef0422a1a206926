import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError } from '../../test-support/api-client';
import { startService, type RunningService } from '../../test-support/start-service';
import {
  SDK,
  createTenant,
  ingest,
  metricItem,
  sdkBody,
  sdkEvent,
} from '../../test-support/telemetry';

type Names = {
  project_id: string;
  since: string;
  until: string;
  names: { name: string; kind: string; unit: string | null; last_seen_at: string }[];
  truncated: boolean;
};

const T = (minute: number, ms = 0) =>
  new Date(Date.parse('2025-03-03T08:00:00Z') + minute * 60_000 + ms).toISOString();
const RANGE = `since=${T(0)}&until=${T(60)}`;
/** More samples than one project's newest 5,000 (what the console once read for names). */
const COMMON_SAMPLES = 6_000;

describe('GET /api/telemetry/metrics/names', () => {
  let svc: RunningService<true>;
  let token = '';
  let projectA = '';
  let projectB = '';
  const get = (query: string) =>
    call(svc.baseUrl, 'GET', `/api/telemetry/metrics/names?${query}`, { token });

  beforeAll(async () => {
    svc = await startService({ demo: true });
    token = svc.creds.account_token;
    const [a, b] = svc.creds.projects;
    projectA = a?.id ?? '';
    projectB = b?.id ?? '';
    const send = async (key: string, items: Record<string, unknown>[]) => {
      const res = await ingest(
        svc,
        SDK,
        key,
        sdkBody(items.map((item) => sdkEvent('metric', metricItem(item)))),
      );
      expect(res.status, res.text).toBe(200);
    };
    // One rare sample, the oldest in range, under thousands of newer ones of another name.
    await send(a?.ingest_key ?? '', [
      { name: 'queue.rare_stall', kind: 'counter', unit: undefined, occurred_at: T(1), value: 1 },
      { name: 'before.range', occurred_at: T(-5) },
      { name: 'web.vitals.lcp', unit: 's', occurred_at: T(2) },
    ]);
    for (let sent = 0; sent < COMMON_SAMPLES; sent += 3000) {
      await send(
        a?.ingest_key ?? '',
        Array.from({ length: 3000 }, (_, i) => ({
          name: 'web.vitals.lcp',
          occurred_at: T(30, sent + i),
          value: i,
        })),
      );
    }
    await send(b?.ingest_key ?? '', [{ name: 'other.project', occurred_at: T(3) }]);
  });
  afterAll(async () => {
    await svc.close();
  });

  it('lists every name with a sample in range, however rare, with its newest kind and unit', async () => {
    const res = await get(`project_id=${projectA}&${RANGE}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      project_id: projectA,
      since: T(0),
      until: T(60),
      names: [
        { name: 'queue.rare_stall', kind: 'counter', unit: null, last_seen_at: T(1) },
        {
          name: 'web.vitals.lcp',
          kind: 'gauge',
          unit: 'ms',
          last_seen_at: T(30, COMMON_SAMPLES - 1),
        },
      ],
      truncated: false,
    } satisfies Names);
  });

  it('keeps to the range and the project, and says when the limit cut the list', async () => {
    const late = await get(`project_id=${projectA}&since=${T(10)}&until=${T(60)}`);
    expect((late.body as Names).names.map((n) => n.name)).toEqual(['web.vitals.lcp']);
    const other = await get(`project_id=${projectB}&${RANGE}`);
    expect((other.body as Names).names.map((n) => n.name)).toEqual(['other.project']);
    const cut = await get(`project_id=${projectA}&${RANGE}&limit=1`);
    expect(cut.body).toMatchObject({ names: [{ name: 'queue.rare_stall' }], truncated: true });
  });

  it('refuses a bad request with 422 and an unreadable project with 404', async () => {
    expectError(await get(RANGE), 422, 'validation_failed');
    expectError(await get(`project_id=nope&${RANGE}`), 422, 'validation_failed');
    expectError(await get(`project_id=${projectA}`), 422, 'validation_failed');
    expectError(await get(`project_id=${projectA}&${RANGE}&name=x`), 422, 'validation_failed');
    expectError(
      await get(`project_id=${projectA}&since=${T(10)}&until=${T(5)}`),
      422,
      'validation_failed',
    );
    const stranger = await createTenant(svc);
    expectError(await get(`project_id=${stranger.projectId}&${RANGE}`), 404, 'not_found');
  });
});
