import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, type CallOptions } from '../../test-support/api-client';
import { addPerson, ingestIssues, issueIdOf, type Person } from '../../test-support/issues';
import { startService, type RunningService } from '../../test-support/start-service';
import { createTenant, issueItem, type Tenant } from '../../test-support/telemetry';

type Webhook = { id: string; organization_id: string; name: string; url: string; secret?: string };
type Delivery = {
  id: string;
  webhook_id: string;
  incident_id: string | null;
  event: string;
  state: string;
  attempts: unknown[];
  next_attempt_at: string | null;
};

describe('alert webhooks, incidents, notifications and snoozes', () => {
  let svc: RunningService<false>;
  let tenant: Tenant;
  let admin: Person;
  let member: Person;
  let outsider: Person;
  const send = (method: string, path: string, person: Person, opts: CallOptions = {}) =>
    call(svc.baseUrl, method, path, { token: person.token, ...opts });
  const hook = (o: Record<string, unknown> = {}) => ({
    organization_id: tenant.organizationId,
    name: 'Pager',
    url: 'https://hooks.example.test/lookout',
    ...o,
  });

  beforeAll(async () => {
    svc = await startService();
    tenant = await createTenant(svc);
    admin = await addPerson(svc, tenant.organizationId, 'admin');
    member = await addPerson(svc, tenant.organizationId, 'member');
    outsider = await addPerson(svc, null, null);
  }, 60_000);
  afterAll(async () => {
    await svc.close();
  });

  it('shows the secret once and never in later reads', async () => {
    const res = await send('POST', '/api/alerts/webhooks', admin, { json: hook() });
    expect(res.status, res.text).toBe(200);
    const created = res.body as Webhook;
    expect(created.secret).toMatch(/^whsec_[0-9a-f]{48}$/);
    const list = await send(
      'GET',
      `/api/alerts/webhooks?organization_id=${tenant.organizationId}`,
      member,
    );
    expect(list.status, list.text).toBe(200);
    const listed = (list.body as { webhooks: Webhook[] }).webhooks;
    expect(listed).toEqual([
      {
        id: created.id,
        organization_id: tenant.organizationId,
        name: 'Pager',
        url: 'https://hooks.example.test/lookout',
        created_at: expect.any(String) as string,
      },
    ]);
    expect(list.text).not.toContain(created.secret ?? 'none');
  });

  it('takes https, or http only to loopback hosts', async () => {
    for (const url of ['http://127.0.0.1:9/x', 'http://localhost:9/x', 'http://[::1]:9/x']) {
      const res = await send('POST', '/api/alerts/webhooks', admin, { json: hook({ url }) });
      expect(res.status, res.text).toBe(200);
    }
    for (const url of [
      'http://hooks.example.test/x',
      'ftp://example.test/',
      'not a url',
      'https://u:p@example.test/',
    ]) {
      const res = await send('POST', '/api/alerts/webhooks', admin, { json: hook({ url }) });
      expectError(res, 422, 'validation_failed');
      expect((res.body as { error: string }).error).toMatch(/url/);
    }
  });

  it('refuses members (403 role_forbidden) and outsiders (404)', async () => {
    expectError(
      await send('POST', '/api/alerts/webhooks', member, { json: hook() }),
      403,
      'role_forbidden',
    );
    expectError(
      await send('POST', '/api/alerts/webhooks', outsider, { json: hook() }),
      404,
      'not_found',
    );
    expectError(
      await send('GET', `/api/alerts/webhooks?organization_id=${tenant.organizationId}`, outsider),
      404,
      'not_found',
    );
  });

  it('enqueues a test delivery and lists it in the delivery log', async () => {
    const created = (await send('POST', '/api/alerts/webhooks', admin, { json: hook() }))
      .body as Webhook;
    expectError(
      await send('POST', `/api/alerts/webhooks/${created.id}/test`, member),
      403,
      'role_forbidden',
    );
    const res = await send('POST', `/api/alerts/webhooks/${created.id}/test`, admin);
    expect(res.status, res.text).toBe(200);
    const delivery = res.body as Delivery;
    expect(delivery).toMatchObject({
      webhook_id: created.id,
      incident_id: null,
      event: 'test',
      state: 'pending',
      attempts: [],
    });
    const log = await send('GET', `/api/alerts/webhooks/${created.id}/deliveries`, member);
    expect(log.status, log.text).toBe(200);
    expect((log.body as { deliveries: Delivery[] }).deliveries.map((d) => d.id)).toEqual([
      delivery.id,
    ]);
    expectError(
      await send('GET', `/api/alerts/webhooks/${created.id}/deliveries`, outsider),
      404,
      'not_found',
    );
    expectError(
      await send('DELETE', `/api/alerts/webhooks/${created.id}`, member),
      403,
      'role_forbidden',
    );
    expect((await send('DELETE', `/api/alerts/webhooks/${created.id}`, admin)).status).toBe(200);
    expectError(
      await send('GET', `/api/alerts/webhooks/${created.id}/deliveries`, admin),
      404,
      'not_found',
    );
  });

  it('replays a webhook create with its Idempotency-Key (same secret)', async () => {
    const headers = { 'Idempotency-Key': 'hook-1' };
    const first = await send('POST', '/api/alerts/webhooks', admin, { json: hook(), headers });
    const again = await send('POST', '/api/alerts/webhooks', admin, { json: hook(), headers });
    expect(again.body).toEqual(first.body);
  });

  it('lists no incidents or notifications before anything fires', async () => {
    const incidents = await send(
      'GET',
      `/api/alerts/incidents?project_id=${tenant.projectId}&state=firing`,
      member,
    );
    expect(incidents.body).toEqual({ incidents: [], next_cursor: null });
    expectError(
      await send('GET', `/api/alerts/incidents?project_id=${tenant.projectId}&state=open`, member),
      422,
      'validation_failed',
    );
    expectError(
      await send('GET', `/api/alerts/incidents/${crypto.randomUUID()}`, member),
      404,
      'not_found',
    );
    const inbox = await send('GET', '/api/alerts/notifications', member);
    expect(inbox.body).toEqual({ notifications: [], unread: 0, read_at: null, next_cursor: null });
    const read = await send('POST', '/api/alerts/notifications/read', member, { json: {} });
    expect(read.body).toEqual({ read_at: new Date(svc.clock.now()).toISOString(), unread: 0 });
    const earlier = await send('POST', '/api/alerts/notifications/read', member, {
      json: { read_at: '2020-01-01T00:00:00Z' },
    });
    expect((earlier.body as { read_at: string }).read_at).toBe(
      new Date(svc.clock.now()).toISOString(),
    );
  });

  it('snoozes and unsnoozes an issue its readers can see', async () => {
    await ingestIssues(svc, tenant.ingestKey, [issueItem({ fingerprint: 'snoozed-thing' })]);
    const issueId = await issueIdOf(svc, admin.token, tenant.projectId, 'snoozed-thing');
    const path = `/api/alerts/issue-snoozes/${issueId}`;
    const read = async () => {
      const res = await send('GET', path, member);
      expect(res.status, res.text).toBe(200);
      return res.body;
    };
    expect(await read()).toEqual({ issue_id: issueId, until: null });
    const until = new Date(svc.clock.now() + 300_000).toISOString();
    const res = await send('PUT', path, member, { json: { until } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ issue_id: issueId, until });
    expect(await read()).toEqual({ issue_id: issueId, until });
    // Read as the service's clock sees it: past its time, no snooze is in force.
    svc.clock.set(svc.clock.now() + 300_000);
    expect(await read()).toEqual({ issue_id: issueId, until: null });
    svc.clock.set(svc.clock.now() - 300_000);
    expectError(await send('GET', path, outsider), 404, 'not_found');
    expectError(
      await send('GET', `/api/alerts/issue-snoozes/${crypto.randomUUID()}`, member),
      404,
      'not_found',
    );
    expectError(
      await send('GET', '/api/alerts/issue-snoozes/not-a-uuid', member),
      400,
      'invalid_path',
    );
    expectError(await send('GET', `${path}?until=x`, member), 422, 'validation_failed');
    expect(await svc.deps.store.alerts.snoozedIssues([issueId], svc.clock.now())).toEqual(
      new Set([issueId]),
    );
    expectError(
      await send('PUT', path, member, { json: { until: '2020-01-01T00:00:00Z' } }),
      422,
      'validation_failed',
    );
    expectError(await send('PUT', path, outsider, { json: { until } }), 404, 'not_found');
    expect((await send('DELETE', path, member)).status).toBe(200);
    expect(await read()).toEqual({ issue_id: issueId, until: null });
    expectError(await send('DELETE', path, member), 404, 'not_found');
  });
});
