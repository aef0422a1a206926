import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword, newId } from '../../domain/secrets';
import type { OrgRole } from '../../domain/org-role';
import { call, expectError, signIn } from '../../test-support/api-client';
import { newTicket, openFeed } from '../../test-support/live-feed';
import { startService, type RunningService } from '../../test-support/start-service';
import {
  NATIVE,
  at,
  createTenant,
  ingest,
  logItem,
  nativeBody,
  type Tenant,
} from '../../test-support/telemetry';

type Svc = RunningService<false>;
type Triage = { effective_severity: string; ignored: boolean; rule_applied: boolean };
type Log = { id: string; severity: string; level: string; triage: Triage };

const ids = (body: unknown) => (body as Log[]).map((l) => l.id);

describe('PUT /api/logs/{log_id}/triage-rule and rules on log reads', () => {
  let svc: Svc;
  let tenant: Tenant;
  let owner = '';
  // Same template ("order <n> failed"), source and service: one rule covers both.
  const a1 = logItem({ occurred_at: at(0), severity: 'warning', message: 'order 17 failed' });
  const a2 = logItem({ occurred_at: at(1000), severity: 'warning', message: 'order 4242 failed' });
  // Same template, another source: a different kind of log.
  const other = logItem({
    occurred_at: at(2000),
    severity: 'warning',
    message: 'order 9 failed',
    source: 'worker',
  });
  const plain = logItem({ occurred_at: at(3000), severity: 'info', message: 'cart loaded' });

  const put = (logId: string, json: unknown, token = owner) =>
    call(svc.baseUrl, 'PUT', `/api/logs/${logId}/triage-rule`, { token, json });
  const get = (path: string, token = owner) => call(svc.baseUrl, 'GET', path, { token });
  const list = (query = '') => get(`/api/logs?project_id=${tenant.projectId}&${query}`);

  async function addAccount(role: OrgRole): Promise<string> {
    const id = newId();
    const email = `${role}-${id.slice(0, 8)}@elsewhere.test`;
    await svc.deps.store.accounts.create({
      id,
      email,
      name: null,
      passwordHash: await hashPassword('pw-for-tests'),
      createdAt: svc.clock.now(),
      revokedBefore: null,
    });
    await svc.deps.store.accounts.addMember({
      organizationId: tenant.organizationId,
      accountId: id,
      role,
    });
    return (await signIn(svc.baseUrl, email, 'pw-for-tests')).accessToken;
  }

  beforeAll(async () => {
    svc = await startService();
    tenant = await createTenant(svc, { password: 'pw-for-tests' });
    owner = (await signIn(svc.baseUrl, tenant.email, tenant.password)).accessToken;
    const res = await ingest(
      svc,
      NATIVE,
      tenant.ingestKey,
      nativeBody({ logs: [a1, a2, other, plain] }),
    );
    expect(res.status, res.text).toBe(200);
  });
  afterAll(async () => {
    await svc.close();
  });

  it('shows captured severity and no rule before any rule exists', async () => {
    const res = await get(`/api/logs/${a1.id}`);
    expect(res.status, res.text).toBe(200);
    expect((res.body as Log).triage).toEqual({
      effective_severity: 'warning',
      ignored: false,
      rule_applied: false,
    });
  });

  it('a severity rule changes triage of every matching log, never severity or level', async () => {
    const res = await put(a1.id, { severity: 'critical', ignored: false });
    expect(res.status, res.text).toBe(200);
    const log = res.body as Log;
    expect(log.id).toBe(a1.id);
    expect(log.severity).toBe('warning');
    expect(log.level).toBe('warning');
    expect(log.triage).toEqual({
      effective_severity: 'critical',
      ignored: false,
      rule_applied: true,
    });

    const sibling = (await get(`/api/logs/${a2.id}`)).body as Log;
    expect(sibling.severity).toBe('warning');
    expect(sibling.triage).toEqual({
      effective_severity: 'critical',
      ignored: false,
      rule_applied: true,
    });
    // Another source is another kind of log.
    expect(((await get(`/api/logs/${other.id}`)).body as Log).triage.rule_applied).toBe(false);
  });

  it('severity and level filters compare effective severity', async () => {
    expect(ids((await list('severity=critical')).body)).toEqual([a2.id, a1.id]);
    expect(ids((await list('level=fatal')).body)).toEqual([a2.id, a1.id]);
    expect(ids((await list('severity=warning')).body)).toEqual([other.id]);
  });

  it('an ignored rule hides matching logs from the default list only', async () => {
    const res = await put(a2.id, { severity: 'critical', ignored: true });
    expect(res.status, res.text).toBe(200);
    expect((res.body as Log).triage).toEqual({
      effective_severity: 'critical',
      ignored: true,
      rule_applied: true,
    });
    expect(ids((await list()).body)).toEqual([plain.id, other.id]);
    expect(ids((await list('status=active')).body)).toEqual([plain.id, other.id]);
    expect(ids((await list('status=ignored')).body)).toEqual([a2.id, a1.id]);
    expect(ids((await list('status=all')).body)).toEqual([plain.id, other.id, a2.id, a1.id]);
    expect(ids((await list('status=ignored&severity=critical')).body)).toEqual([a2.id, a1.id]);
  });

  it('applies to matching logs ingested after the rule', async () => {
    const later = logItem({ occurred_at: at(5000), severity: 'error', message: 'order 5 failed' });
    const res = await ingest(svc, NATIVE, tenant.ingestKey, nativeBody({ logs: [later] }));
    expect(res.status, res.text).toBe(200);
    const log = (await get(`/api/logs/${later.id}`)).body as Log;
    expect(log.severity).toBe('error');
    expect(log.triage).toEqual({
      effective_severity: 'critical',
      ignored: true,
      rule_applied: true,
    });
    expect(ids((await list('status=ignored')).body)).toContain(later.id);
    expect(ids((await list()).body)).not.toContain(later.id);
  });

  it('`source` removes the override; with ignored false it removes the rule', async () => {
    const kept = await put(a1.id, { severity: 'source', ignored: true });
    expect(kept.status, kept.text).toBe(200);
    expect((kept.body as Log).triage).toEqual({
      effective_severity: 'warning',
      ignored: true,
      rule_applied: true,
    });
    const removed = await put(a1.id, { severity: 'source', ignored: false });
    expect(removed.status, removed.text).toBe(200);
    expect((removed.body as Log).triage).toEqual({
      effective_severity: 'warning',
      ignored: false,
      rule_applied: false,
    });
    expect(ids((await list('status=ignored')).body)).toEqual([]);
    expect(ids((await list('severity=critical')).body)).toEqual([]);
  });

  it('an admin may set rules; a member gets 403 and nothing changes', async () => {
    const admin = await addAccount('admin');
    const byAdmin = await put(plain.id, { severity: 'error', ignored: false }, admin);
    expect(byAdmin.status, byAdmin.text).toBe(200);
    const member = await addAccount('member');
    expectError(await put(plain.id, { severity: 'info', ignored: true }, member), 403, 'forbidden');
    const log = (await get(`/api/logs/${plain.id}`)).body as Log;
    expect(log.triage).toEqual({ effective_severity: 'error', ignored: false, rule_applied: true });
  });

  it('refuses unknown, unreadable and malformed requests', async () => {
    const missing = await put(newId(), { severity: 'error', ignored: false });
    expectError(missing, 404, 'not_found');
    expect((missing.body as { error: string }).error).toBe('log not found');
    // A log of another account's project reads as unknown.
    const stranger = await createTenant(svc);
    const foreign = logItem();
    await ingest(svc, NATIVE, stranger.ingestKey, nativeBody({ logs: [foreign] }));
    expectError(await put(foreign.id, { severity: 'error', ignored: false }), 404, 'not_found');

    expectError(
      await put('not-a-uuid', { severity: 'error', ignored: false }),
      400,
      'invalid_path',
    );
    for (const json of [
      { severity: 'fatal', ignored: false },
      { severity: 'error' },
      { ignored: true },
      { severity: 'error', ignored: 'yes' },
      { severity: 'error', ignored: false, extra: 1 },
    ]) {
      expectError(await put(a1.id, json), 422, 'validation_failed');
    }
    const anonymous = await call(svc.baseUrl, 'PUT', `/api/logs/${a1.id}/triage-rule`, {
      json: { severity: 'error', ignored: false },
    });
    expectError(anonymous, 401, 'unauthorized');
  });

  it('the live feed shows the triage of a matching rule', async () => {
    const set = await put(a1.id, { severity: 'error', ignored: true });
    expect(set.status, set.text).toBe(200);
    const feed = await openFeed(svc.baseUrl, await newTicket(svc.baseUrl, owner));
    try {
      const live = logItem({ severity: 'info', message: 'order 77 failed' });
      const res = await ingest(svc, NATIVE, tenant.ingestKey, nativeBody({ logs: [live] }));
      expect(res.status, res.text).toBe(200);
      const m = await feed.until((msg) => msg.data.id === live.id);
      expect(m.type).toBe('native_log');
      expect(m.data.severity).toBe('info');
      expect(m.data.triage).toEqual({
        effective_severity: 'error',
        ignored: true,
        rule_applied: true,
      });
    } finally {
      feed.close();
    }
  });
});

describe('GET /api/logs/usage (legacy)', () => {
  let svc: Svc;

  beforeAll(async () => {
    svc = await startService();
  });
  afterAll(async () => {
    await svc.close();
  });

  it("reports the period's billed log bytes, the plan quota and the month", async () => {
    const tenant = await createTenant(svc, { password: 'pw-for-tests', tier: 'pro' });
    const signedIn = await signIn(svc.baseUrl, tenant.email, tenant.password);
    const message = 'caf\u00e9 ready';
    const attributes = { n: 1 };
    const res = await ingest(
      svc,
      NATIVE,
      tenant.ingestKey,
      nativeBody({ logs: [logItem({ message, attributes })] }),
    );
    expect(res.status, res.text).toBe(200);
    const billed = Buffer.byteLength(message) + Buffer.byteLength(JSON.stringify(attributes));
    const expected = {
      bytes_used: billed,
      limit_bytes: svc.deps.config.planQuotas.pro.log_bytes,
      month: new Date(svc.clock.now()).toISOString().slice(0, 7),
    };

    const byBearer = await call(svc.baseUrl, 'GET', '/api/logs/usage', {
      token: signedIn.accessToken,
    });
    expect(byBearer.status, byBearer.text).toBe(200);
    expect(byBearer.body).toEqual(expected);
    const bySession = await call(svc.baseUrl, 'GET', '/api/logs/usage', {
      session: signedIn.session,
    });
    expect(bySession.status, bySession.text).toBe(200);
    expect(bySession.body).toEqual(expected);

    const withKey = await call(svc.baseUrl, 'GET', '/api/logs/usage?month=2025-03', {
      token: signedIn.accessToken,
    });
    expectError(withKey, 422, 'validation_failed');
    expectError(await call(svc.baseUrl, 'GET', '/api/logs/usage'), 401, 'unauthorized');
  });
});
