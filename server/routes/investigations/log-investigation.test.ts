import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLE_LIMITS } from '../../domain/investigation-bounds';
import { call, expectError } from '../../test-support/api-client';
import {
  BIG_TRACE,
  getAs,
  longestString,
  putDeployment,
  seedInvestigationWorld,
  type InvestigationWorld,
} from '../../test-support/investigation-world';
import { startService, type RunningService } from '../../test-support/start-service';
import { at } from '../../test-support/telemetry';

type Bundle = {
  schema_version: number;
  subject: Record<string, unknown>;
  log: { id: string; message: string; attributes: Record<string, unknown> };
  trace: { trace_id: string } | null;
  issues: { issue_id: string }[];
  deployments: { deployment_id: string }[];
  coverage: {
    complete: boolean;
    sections: { section: string; status: string }[];
    truncated_sections: string[];
    unavailable: { section: string; reason: string }[];
  };
};

describe('GET /api/logs/{log_id}/investigation', () => {
  let svc: RunningService<false>;
  let w: InvestigationWorld;
  const path = (id: string, q = '') => `/api/logs/${id}/investigation${q}`;

  beforeAll(async () => {
    svc = await startService();
    w = await seedInvestigationWorld(svc);
  }, 60_000);
  afterAll(async () => {
    await svc.close();
  });

  it('takes no query keys', async () => {
    for (const q of ['?project_id=x', '?response_version=1', '?trace_id=1'])
      expectError(await getAs(svc, w.token, path(w.logIds.huge, q)), 422, 'validation_failed');
  });

  it('unknown and unreadable logs are 404 alike; a bad id is 400; no bearer is 401', async () => {
    const unknown = await getAs(svc, w.token, path('00000000-0000-4000-8000-000000000000'));
    const other = await getAs(svc, w.token, path(w.logIds.other));
    expectError(unknown, 404, 'not_found');
    expect(other.body).toEqual(unknown.body);
    expectError(await getAs(svc, w.token, path('nope')), 400, 'invalid_path');
    expectError(await call(svc.baseUrl, 'GET', path(w.logIds.huge)), 401, 'unauthorized');
  });

  it('the log with its trace, the issues of the trace and the release deployment, bounded', async () => {
    const id = await putDeployment(svc, w.token, w.tenant.projectId, {
      started_at: at(0),
      finished_at: at(1_000),
    });
    const res = await getAs(svc, w.token, path(w.logIds.huge));
    expect(res.status, res.text).toBe(200);
    const b = res.body as Bundle;
    expect(b.subject).toMatchObject({
      kind: 'log',
      id: w.logIds.huge,
      name: 'app',
      status: 'active',
      content_trust: 'untrusted_telemetry',
      release: 'shop@1.0.0',
    });
    expect(b.log.message).toHaveLength(BUNDLE_LIMITS.text_chars);
    // Attributes nested deeper than the limit are cut, and counted.
    expect(JSON.stringify(b.log.attributes)).not.toContain('gone');
    expect(b.trace?.trace_id).toBe(BIG_TRACE);
    expect(b.issues.map((i) => i.issue_id)).toEqual([w.issueId]);
    expect(b.deployments.map((d) => d.deployment_id)).toEqual([id]);
    expect(longestString(b)).toBeLessThanOrEqual(BUNDLE_LIMITS.text_chars);
    expect(b.coverage.truncated_sections).toContain('log');
    expect(b.coverage.unavailable).toEqual([]);
  });

  it('a log without a trace says trace and issues are unavailable', async () => {
    const b = (await getAs(svc, w.token, path(w.logIds.plain))).body as Bundle;
    expect(b.trace).toBeNull();
    expect(b.issues).toEqual([]);
    expect(b.coverage.unavailable.map((u) => u.section).sort()).toEqual(['issues', 'trace']);
    expect(b.coverage.complete).toBe(false);
  });
});
