import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError } from '../../test-support/api-client';
import {
  getAs,
  putDeployment,
  seedInvestigationWorld,
  type InvestigationWorld,
} from '../../test-support/investigation-world';
import { startService, type RunningService } from '../../test-support/start-service';
import { T0, at } from '../../test-support/telemetry';

type Bundle = {
  schema_version: number;
  subject: Record<string, unknown>;
  series: { name: string; series: { values: (number | null)[] }[]; truncated_series: boolean };
  deployments: { deployment_id: string }[];
  releases: { release: string; service_name: string }[];
  coverage: { unavailable: { section: string }[]; sections: { section: string }[] };
};

describe('GET /api/telemetry/metrics/investigation', () => {
  let svc: RunningService<false>;
  let w: InvestigationWorld;
  const base = () =>
    `/api/telemetry/metrics/investigation?project_id=${w.tenant.projectId}&name=http.server.duration`;

  beforeAll(async () => {
    svc = await startService();
    w = await seedInvestigationWorld(svc);
  }, 60_000);
  afterAll(async () => {
    await svc.close();
  });

  it.each([
    ['an unknown key', '&since=2h&foo=1'],
    ['no since', ''],
    ['a range over 31 days', '&since=2025-01-01T00:00:00Z'],
    ['series_limit 21', '&since=2h&series_limit=21'],
    ['response_version 2', '&since=2h&response_version=2'],
    ['an unknown group_by', '&since=2h&group_by=host'],
    ['a blank release', '&since=2h&release='],
    ['more than 500 buckets', '&since=30d&interval=1m'],
  ])('%s is 422, as on the series', async (_name, q) => {
    expectError(await getAs(svc, w.token, base() + q), 422, 'validation_failed');
  });

  it('needs project_id and name', async () => {
    const r1 = await getAs(svc, w.token, '/api/telemetry/metrics/investigation?name=x&since=2h');
    expectError(r1, 422, 'validation_failed');
    const r2 = await getAs(
      svc,
      w.token,
      `/api/telemetry/metrics/investigation?project_id=${w.tenant.projectId}&since=2h`,
    );
    expectError(r2, 422, 'validation_failed');
  });

  it('unknown and unreadable projects are 404 alike; no bearer is 401', async () => {
    const q = '&name=http.server.duration&since=2h';
    const unknown = await getAs(
      svc,
      w.token,
      `/api/telemetry/metrics/investigation?project_id=00000000-0000-4000-8000-000000000000${q}`,
    );
    const other = await getAs(
      svc,
      w.token,
      `/api/telemetry/metrics/investigation?project_id=${w.other.projectId}${q}`,
    );
    expectError(unknown, 404, 'not_found');
    expect(other.body).toEqual(unknown.body);
    expectError(await call(svc.baseUrl, 'GET', `${base()}&since=2h`), 401, 'unauthorized');
  });

  it('the series as the series route answers it, deployments in range and the releases seen', async () => {
    const inRange = await putDeployment(svc, w.token, w.tenant.projectId, {
      started_at: at(600_000),
      finished_at: at(660_000),
    });
    await putDeployment(svc, w.token, w.tenant.projectId, {
      started_at: '2025-02-01T00:00:00Z',
      finished_at: '2025-02-01T00:10:00Z',
    });
    const q = `&since=${T0}&until=${at(3_600_000)}&interval=5m`;
    const res = await getAs(svc, w.token, base() + q);
    expect(res.status, res.text).toBe(200);
    const b = res.body as Bundle;
    const series = await getAs(
      svc,
      w.token,
      `/api/telemetry/metrics/series?project_id=${w.tenant.projectId}&name=http.server.duration${q}`,
    );
    expect(b.series).toEqual(series.body);
    expect(b.subject).toMatchObject({
      kind: 'metric',
      id: 'http.server.duration',
      name: 'http.server.duration',
      project_id: w.tenant.projectId,
      content_trust: 'untrusted_telemetry',
      occurred_at: null,
    });
    expect(b.deployments.map((d) => d.deployment_id)).toEqual([inRange]);
    expect(b.releases.map((r) => r.release)).toContain('shop@1.0.0');
  });

  it('an empty range says the samples and deployments are unavailable', async () => {
    const res = await getAs(
      svc,
      w.token,
      `${base()}&since=2025-02-10T00:00:00Z&until=2025-02-11T00:00:00Z`,
    );
    const b = res.body as Bundle;
    expect(b.coverage.unavailable.map((u) => u.section).sort()).toEqual(['deployments', 'samples']);
    expect(b.releases).toEqual([]);
  });
});
