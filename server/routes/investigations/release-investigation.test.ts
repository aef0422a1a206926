import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError } from '../../test-support/api-client';
import {
  getAs,
  putDeployment,
  seedInvestigationWorld,
  type InvestigationWorld,
} from '../../test-support/investigation-world';
import { startService, type RunningService } from '../../test-support/start-service';
import { NATIVE, at, ingest, logItem, nativeBody, spanItem } from '../../test-support/telemetry';

type Bundle = {
  subject: Record<string, unknown>;
  rows: { release: string; service_name: string }[];
  error_traces: { trace_count: number; error_trace_count: number; error_rate_basis_points: number };
  top_issues: { issue_id: string; occurrences: number }[];
  deployments: { deployment_id: string }[];
  previous_release: Record<string, unknown> | null;
  coverage: { unavailable: { section: string; reason: string }[] };
};

describe('GET /api/telemetry/releases/investigation', () => {
  let svc: RunningService<false>;
  let w: InvestigationWorld;
  const path = (q: string) => `/api/telemetry/releases/investigation?${q}`;
  const base = () => `project_id=${w.tenant.projectId}&release=shop@1.0.0`;

  beforeAll(async () => {
    svc = await startService();
    w = await seedInvestigationWorld(svc);
    // An earlier release of checkout-api in production, with one ok trace.
    const res = await ingest(
      svc,
      NATIVE,
      w.tenant.ingestKey,
      nativeBody({
        release: 'shop@0.9.0',
        logs: [logItem({ occurred_at: at(-7_200_000) })],
        trace_spans: [spanItem({ trace_id: 'f'.repeat(32), started_at: at(-7_200_000) })],
      }),
    );
    expect(res.status, res.text).toBe(200);
  }, 60_000);
  afterAll(async () => {
    await svc.close();
  });

  it.each([
    ['no project_id', 'release=shop@1.0.0'],
    ['no release', 'project_id=00000000-0000-4000-8000-000000000000'],
    ['a project_id that is not a UUID', 'project_id=x&release=a'],
    ['an unknown key', 'project_id=00000000-0000-4000-8000-000000000000&release=a&since=1h'],
    [
      'response_version 2',
      'project_id=00000000-0000-4000-8000-000000000000&release=a&response_version=2',
    ],
    [
      'a blank environment',
      'project_id=00000000-0000-4000-8000-000000000000&release=a&environment=',
    ],
  ])('%s is 422', async (_name, q) => {
    expectError(await getAs(svc, w.token, path(q)), 422, 'validation_failed');
  });

  it('unknown releases and unreadable projects are 404 alike; no bearer is 401', async () => {
    const unknown = await getAs(
      svc,
      w.token,
      path(`project_id=${w.tenant.projectId}&release=nope`),
    );
    const other = await getAs(
      svc,
      w.token,
      path(`project_id=${w.other.projectId}&release=shop@1.0.0`),
    );
    expectError(unknown, 404, 'not_found');
    expect(other.body).toEqual(unknown.body);
    expectError(await call(svc.baseUrl, 'GET', path(base())), 401, 'unauthorized');
  });

  it('all rows of the release, its top issues and error-trace share', async () => {
    const res = await getAs(svc, w.token, path(base()));
    expect(res.status, res.text).toBe(200);
    const b = res.body as Bundle;
    expect(b.subject).toMatchObject({
      kind: 'release',
      id: 'shop@1.0.0',
      status: 'errors_observed',
      content_trust: 'untrusted_telemetry',
      service_name: null,
    });
    expect(b.rows.map((r) => r.service_name).sort()).toEqual([
      'checkout-api',
      'inventory',
      'payments',
    ]);
    expect(b.top_issues.map((i) => [i.issue_id, i.occurrences])).toEqual([
      [w.issueId, 3],
      [w.plainIssueId, 1],
    ]);
    expect(b.error_traces.error_trace_count).toBeGreaterThan(0);
    expect(b.error_traces.error_rate_basis_points).toBeGreaterThan(0);
    expect(b.coverage.unavailable.map((u) => u.section)).toEqual([
      'deployments',
      'previous_release',
    ]);
  });

  it('one environment and service: the deployment and the previous release compared', async () => {
    const id = await putDeployment(svc, w.token, w.tenant.projectId, {
      started_at: at(-100_000),
      finished_at: at(-90_000),
    });
    const res = await getAs(
      svc,
      w.token,
      path(`${base()}&environment=production&service_name=checkout-api`),
    );
    const b = res.body as Bundle;
    expect(b.rows).toHaveLength(1);
    expect(b.subject).toMatchObject({ service_name: 'checkout-api', environment: 'production' });
    expect(b.deployments.map((d) => d.deployment_id)).toEqual([id]);
    expect(b.previous_release).toMatchObject({
      release: 'shop@0.9.0',
      trace_count: 1,
      error_trace_count: 0,
      error_rate_basis_points: 0,
    });
    expect(b.coverage.unavailable).toEqual([]);
  });
});
