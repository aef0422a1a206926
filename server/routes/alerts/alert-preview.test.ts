import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError } from '../../test-support/api-client';
import { addPerson, type Person } from '../../test-support/issues';
import { startService, type RunningService } from '../../test-support/start-service';
import {
  NATIVE,
  createTenant,
  ingest,
  logItem,
  nativeBody,
  type Tenant,
} from '../../test-support/telemetry';

type Preview = {
  points: { t: string; value: number | null }[];
  threshold: number;
  op: string;
  would_fire: { start: string; end: string | null }[];
  deployments: { release: string; deployed_at: string; environment: string }[];
  interval_minutes: number;
};
const HOUR = 3_600_000;

describe('POST /api/alerts/preview', () => {
  let svc: RunningService<false>;
  let tenant: Tenant;
  let member: Person;
  let outsider: Person;
  const preview = (person: Person, json: unknown) =>
    call(svc.baseUrl, 'POST', '/api/alerts/preview', { token: person.token, json });
  const body = (o: Record<string, unknown> = {}) => ({
    project_id: tenant.projectId,
    kind: 'log',
    condition: { query: { search: 'spike' }, op: 'above', threshold: 2, window_minutes: 60 },
    resolve_threshold: 0,
    ...o,
  });

  beforeAll(async () => {
    svc = await startService();
    tenant = await createTenant(svc);
    member = await addPerson(svc, tenant.organizationId, 'member');
    outsider = await addPerson(svc, null, null);
    // Now is 09:00; a spike of 3 logs in the 05:00 hour and one log in the 07:00 hour.
    const logs = [
      ...[1, 2, 3].map((m) =>
        logItem({
          occurred_at: new Date(svc.clock.now() - 4 * HOUR + m * 60_000).toISOString(),
          message: 'spike here',
        }),
      ),
      logItem({
        occurred_at: new Date(svc.clock.now() - 2 * HOUR + 60_000).toISOString(),
        message: 'spike again',
      }),
    ];
    const res = await ingest(svc, NATIVE, tenant.ingestKey, nativeBody({ logs }));
    expect(res.status, res.text).toBe(200);
    await svc.deps.store.deployments.put(
      {
        projectId: tenant.projectId,
        deploymentId: 'dep-preview',
        release: 'shop@2.0.0',
        environment: 'production',
        serviceName: 'checkout-api',
        status: 'succeeded',
        startedAt: svc.clock.now() - 5 * HOUR,
        finishedAt: svc.clock.now() - 4.5 * HOUR,
        commitSha: null,
        createdAt: svc.clock.now() - 4.5 * HOUR,
      },
      tenant.accountId,
    );
  }, 60_000);
  afterAll(async () => {
    await svc.close();
  });

  it('answers 24 hours of points, where it would fire and resolve, and deployments', async () => {
    const res = await preview(member, body());
    expect(res.status, res.text).toBe(200);
    const p = res.body as Preview;
    expect(p).toMatchObject({ threshold: 2, op: 'above', interval_minutes: 60 });
    expect(p.points).toHaveLength(24);
    const now = svc.clock.now();
    expect(p.points[0]?.t).toBe(new Date(now - 24 * HOUR).toISOString());
    const at = (hoursAgo: number) =>
      p.points.find((x) => x.t === new Date(now - hoursAgo * HOUR).toISOString())?.value;
    expect(at(4)).toBe(3);
    expect(at(2)).toBe(1);
    expect(at(3)).toBe(0);
    // Fires at the end of the 05:00 hour; 06:00 holds none (past the resolve threshold 0).
    expect(p.would_fire).toEqual([
      {
        start: new Date(now - 3 * HOUR).toISOString(),
        end: new Date(now - 2 * HOUR).toISOString(),
      },
    ]);
    expect(p.deployments).toEqual([
      {
        release: 'shop@2.0.0',
        deployed_at: new Date(now - 4.5 * HOUR).toISOString(),
        environment: 'production',
      },
    ]);
  });

  it('previews short windows on 5-minute buckets', async () => {
    const res = await preview(
      member,
      body({ condition: { query: {}, op: 'below', threshold: 1, window_minutes: 1 } }),
    );
    expect(res.status, res.text).toBe(200);
    const p = res.body as Preview;
    expect(p.interval_minutes).toBe(5);
    expect(p.points).toHaveLength(288);
  });

  it('checks the rule like a create and the project like a read', async () => {
    const bad = await preview(
      member,
      body({ condition: { query: {}, op: 'sideways', threshold: 1, window_minutes: 5 } }),
    );
    expectError(bad, 422, 'validation_failed');
    expect((bad.body as { error: string }).error).toMatch(/condition\.op/);
    expectError(await preview(member, body({ name: 'x' })), 422, 'validation_failed');
    expectError(await preview(outsider, body()), 404, 'not_found');
  });
});
