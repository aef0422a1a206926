import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../test-support/api-client';
import { startService, type RunningService } from '../test-support/start-service';
import {
  NATIVE,
  body,
  ingest,
  issueItem,
  logItem,
  nativeBody,
  type NativeCounts,
} from '../test-support/telemetry';
import { dropTelemetryBefore } from './drop-telemetry-before';

describe('npm run service -- drop-telemetry-before', () => {
  it('needs PostgreSQL and a calendar date', async () => {
    expect(await dropTelemetryBefore({ databaseUrl: null }, '2025-02-01')).toEqual({
      ok: false,
      error: 'drop-telemetry-before needs DATABASE_URL (PostgreSQL)',
    });
    const pg = { databaseUrl: 'postgres://nobody@127.0.0.1:1/none' };
    for (const bad of ['', 'yesterday', '2025-02', '2025-02-30x']) {
      expect(await dropTelemetryBefore(pg, bad)).toMatchObject({ ok: false });
    }
  });

  it('refuses PostgreSQL state beside ClickHouse, whose occurrence months the issue reads join', async () => {
    const beside = {
      databaseUrl: 'postgres://nobody@127.0.0.1:1/none',
      telemetry: {
        engine: 'clickhouse' as const,
        url: null,
        database: 'lookout',
        embeddedPath: '/nonexistent',
      },
    };
    expect(await dropTelemetryBefore(beside, '2025-02-01')).toMatchObject({
      ok: false,
      error: expect.stringContaining('with telemetry in ClickHouse') as unknown,
    });
  });
});

describe.skipIf(!process.env.LOOKOUT_TEST_DATABASE_URL)('dropping old months on PostgreSQL', () => {
  let svc: RunningService<true>;
  let token = '';
  let key = '';
  let project = '';
  const january = logItem({ occurred_at: '2025-01-15T10:00:00.000Z', message: 'january' });
  const february = logItem({ occurred_at: '2025-02-27T10:00:00.000Z', message: 'february' });
  const march = logItem({ occurred_at: '2025-03-01T10:00:00.000Z', message: 'march' });
  const oldIssue = issueItem({
    occurred_at: '2025-01-20T10:00:00.000Z',
    fingerprint: 'old',
    exception: { type: 'OldError', value: 'from january' },
  });
  const newIssue = issueItem({
    occurred_at: '2025-03-02T10:00:00.000Z',
    fingerprint: 'new',
    exception: { type: 'NewError', value: 'from march' },
  });
  const logMessages = async () => {
    const res = await call(
      svc.baseUrl,
      'GET',
      `/api/logs?project_id=${project}&since=2024-12-01T00:00:00Z&limit=100`,
      { token },
    );
    expect(res.status).toBe(200);
    return (res.body as { message: string }[]).map((l) => l.message).sort();
  };

  beforeAll(async () => {
    svc = await startService({ demo: true });
    token = svc.creds.account_token;
    project = svc.creds.projects[0]?.id ?? '';
    key = svc.creds.projects[0]?.ingest_key ?? '';
    const res = await ingest(
      svc,
      NATIVE,
      key,
      nativeBody({ logs: [january, february, march], issues: [oldIssue, newIssue] }),
    );
    expect(res.status).toBe(200);
  });
  afterAll(() => svc.close());

  it('drops whole months ended by the date and keeps the rest readable', async () => {
    const result = await dropTelemetryBefore({ databaseUrl: svc.database.url }, '2025-03-01');
    if (!result.ok) throw new Error(result.error);
    // January and February end by March 1st; March does not.
    expect(result.dropped).toEqual(
      expect.arrayContaining(['logs_y2025m01', 'logs_y2025m02', 'issue_occurrences_y2025m01']),
    );
    expect(result.dropped.some((name) => name.endsWith('y2025m03'))).toBe(false);
    expect(await logMessages()).toEqual(['march']);

    // The issue whose only occurrence is gone leaves the board; the other stays readable.
    const issues = await call(
      svc.baseUrl,
      'GET',
      `/api/telemetry/issues?project_id=${project}&limit=100`,
      { token },
    );
    expect(issues.status).toBe(200);
    const titles = (issues.body as { title: string }[]).map((i) => i.title);
    expect(titles).toEqual(['NewError: from march']);

    // Dropped again: nothing left to drop.
    expect(await dropTelemetryBefore({ databaseUrl: svc.database.url }, '2025-03-01')).toEqual({
      ok: true,
      dropped: [],
    });
  });

  it('a month dropped can be sent again, and then it is stored again', async () => {
    const res = await ingest(svc, NATIVE, key, nativeBody({ logs: [january, march] }));
    expect(body<NativeCounts>(res)).toMatchObject({ logs: 1, already_accepted: 1 });
    expect(await logMessages()).toEqual(['january', 'march']);
  });
});
