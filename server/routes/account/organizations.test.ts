import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changePlan } from '../../admin/change-plan';
import { call, expectError, signIn } from '../../test-support/api-client';
import { startService, type RunningService } from '../../test-support/start-service';
import { storeSql } from '../../test-support/store-sql';
import { createTenant, type Tenant } from '../../test-support/telemetry';

type Svc = RunningService<true>;
type Organization = { id: string; name: string; role: string };
type Readiness = {
  organization_creation_allowed: boolean;
  organization_creation_blocker: string | null;
  limits: { organizations: number };
  next: string;
};

describe('POST /api/organizations', () => {
  let svc: Svc;
  let tenant: Tenant;
  let token = '';
  const create = (name: unknown, opts: { token?: string; headers?: Record<string, string> } = {}) =>
    call(svc.baseUrl, 'POST', '/api/organizations', {
      token: opts.token ?? token,
      json: { name },
      ...(opts.headers ? { headers: opts.headers } : {}),
    });
  const readiness = async (t = token) =>
    (await call(svc.baseUrl, 'GET', '/api/account/subscription', { token: t })).body as Readiness;
  const setPlan = async (email: string, tier: string, extra: { state?: string } = {}) => {
    const r = await changePlan(svc.deps.store, { email, tier, ...extra }, svc.clock.now());
    expect(r.ok, r.ok ? '' : r.error).toBe(true);
  };

  beforeAll(async () => {
    svc = await startService({ demo: true });
    tenant = await createTenant(svc, { password: 'tenant-password' });
    token = (await signIn(svc.baseUrl, tenant.email, tenant.password)).accessToken;
  });
  afterAll(() => svc.close());

  it('a free account is refused with 402 subscription_required and choose_plan, and nothing is created', async () => {
    const chen = await signIn(svc.baseUrl, 'chen@lookout.dev', 'lookout-demo');
    const before = await readiness(chen.accessToken);
    const res = await create('Chen Labs', { token: chen.accessToken });
    expectError(res, 402, 'subscription_required', {
      code: 'choose_plan',
      target: 'pricing',
    });
    expect(res.body).toMatchObject({
      next: before.next,
      organization_creation_blocker: 'subscription_required',
    });
    const me = await call(svc.baseUrl, 'GET', '/api/account', { token: chen.accessToken });
    const names = (me.body as { organizations: Organization[] }).organizations.map((o) => o.name);
    expect(names).not.toContain('Chen Labs');
  });

  it('a paid active account creates one: 200, owner, visible in GET /api/account', async () => {
    await setPlan(tenant.email, 'pro');
    const res = await create('  Research Lab  ');
    expect(res.status, res.text).toBe(200);
    const org = res.body as Organization;
    expect(org).toEqual({ id: expect.any(String), name: 'Research Lab', role: 'owner' });
    const me = await call(svc.baseUrl, 'GET', '/api/account', { token });
    expect((me.body as { organizations: Organization[] }).organizations).toContainEqual(
      expect.objectContaining(org),
    );
  });

  it('the new organization counts toward the limit; at the limit it is 422 organization_limit_exceeded', async () => {
    // The tenant owned one organization, then created one: pro allows 3.
    const limit = (await readiness()).limits.organizations;
    expect(limit).toBe(3);
    expect((await create('Third')).status).toBe(200);
    const full = await readiness();
    expect(full.organization_creation_allowed).toBe(false);
    expect(full.organization_creation_blocker).toBe('organization_limit_exceeded');
    const res = await create('Fourth');
    expectError(res, 422, 'organization_limit_exceeded', {
      code: 'manage_organization_limit',
      target: 'organization',
    });
    expect(res.body).toMatchObject({
      next: full.next,
      organization_creation_blocker: 'organization_limit_exceeded',
      limit: 'organizations',
    });
  });

  it('concurrent creates cannot pass the limit', async () => {
    await setPlan(tenant.email, 'scale');
    const room = 10 - 3;
    const results = await Promise.all(
      Array.from({ length: room + 3 }, (_, i) => create(`Parallel ${i}`)),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(room);
    expect(results.filter((r) => r.status === 422)).toHaveLength(3);
    expect((await readiness()).organization_creation_blocker).toBe('organization_limit_exceeded');
  });

  it.each(['past_due', 'paused', 'canceled'])(
    // No organization exists yet to be paused (423): the action needs a paid plan in force.
    'a %s subscription is 402 subscription_required with resume_subscription',
    async (state) => {
      const other = await createTenant(svc, { password: 'other-password' });
      const t = (await signIn(svc.baseUrl, other.email, other.password)).accessToken;
      await setPlan(other.email, 'pro', { state });
      const res = await create('Paused Org', { token: t });
      expectError(res, 402, 'subscription_required', {
        code: 'resume_subscription',
        target: 'billing',
      });
      expect(res.body).toMatchObject({
        next: (await readiness(t)).next,
        organization_creation_blocker: 'subscription_inactive',
      });
    },
  );

  it('a retry with the same Idempotency-Key replays the organization; another body is 409', async () => {
    const other = await createTenant(svc, { password: 'retry-password' });
    const t = (await signIn(svc.baseUrl, other.email, other.password)).accessToken;
    await setPlan(other.email, 'pro');
    const headers = { 'idempotency-key': 'org-retry-1' };
    const first = await create('Retry Org', { token: t, headers });
    const again = await create('Retry Org', { token: t, headers });
    expect(first.status, first.text).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const me = await call(svc.baseUrl, 'GET', '/api/account', { token: t });
    const names = (me.body as { organizations: Organization[] }).organizations.map((o) => o.name);
    expect(names.filter((n) => n === 'Retry Org')).toHaveLength(1);
    expectError(await create('Other Org', { token: t, headers }), 409, 'idempotency_conflict');
  });

  it('two organizations with one name get distinct slugs', async () => {
    const other = await createTenant(svc, { password: 'slug-password' });
    const t = (await signIn(svc.baseUrl, other.email, other.password)).accessToken;
    await setPlan(other.email, 'pro');
    expect((await create('Same Name', { token: t })).status).toBe(200);
    expect((await create('Same Name', { token: t })).status).toBe(200);
  });

  it('a slug another create takes between the check and the write goes to the next one', async () => {
    const other = await createTenant(svc, { password: 'race-password' });
    const t = (await signIn(svc.baseUrl, other.email, other.password)).accessToken;
    await setPlan(other.email, 'pro');
    expect((await create('Racing Org', { token: t })).status).toBe(200);
    // The check misses that organization, as it does when another instance creates it then.
    const accounts = svc.deps.store.accounts;
    const slugTaken = accounts.organizationSlugTaken;
    let missed = 0;
    accounts.organizationSlugTaken = async (slug) => {
      if (slug === 'racing-org' && missed++ === 0) return false;
      return slugTaken.call(accounts, slug);
    };
    try {
      const res = await create('Racing Org', { token: t });
      expect(res.status, res.text).toBe(200);
    } finally {
      accounts.organizationSlugTaken = slugTaken;
    }
    expect(missed).toBe(2);
    const db = storeSql(svc);
    try {
      const rows = await db.rows<{ slug: string }>(
        'SELECT slug FROM organizations WHERE name = ? ORDER BY slug',
        ['Racing Org'],
      );
      expect(rows.map((r) => r.slug)).toEqual(['racing-org', 'racing-org-2']);
    } finally {
      await db.close();
    }
  });

  it.each([
    ['a blank name', { name: '   ' }],
    ['a name over 100 characters', { name: 'x'.repeat(101) }],
    ['a missing name', {}],
    ['a name that is not a string', { name: 7 }],
    ['an unknown key', { name: 'Ok', slug: 'ok' }],
  ])('%s is 422 validation_failed', async (_, json) => {
    const res = await call(svc.baseUrl, 'POST', '/api/organizations', { token, json });
    expectError(res, 422, 'validation_failed');
  });

  it('a body that is not JSON is refused before the gate', async () => {
    const res = await call(svc.baseUrl, 'POST', '/api/organizations', {
      token,
      raw: 'name=x',
      contentType: 'text/plain',
    });
    expectError(res, 415, 'invalid_json');
  });

  it('without a credential is 401 unauthorized', async () => {
    const res = await call(svc.baseUrl, 'POST', '/api/organizations', { json: { name: 'X' } });
    expectError(res, 401, 'unauthorized', { code: 'sign_in', target: 'auth' });
  });

  it('accepts the browser session cookie alone', async () => {
    const other = await createTenant(svc, { password: 'session-password' });
    const s = await signIn(svc.baseUrl, other.email, other.password);
    await setPlan(other.email, 'pro');
    const res = await call(svc.baseUrl, 'POST', '/api/organizations', {
      session: s.session,
      json: { name: 'Session Org' },
    });
    expect(res.status, res.text).toBe(200);
  });

  it('GET is 405 naming POST', async () => {
    const res = await call(svc.baseUrl, 'GET', '/api/organizations', { token });
    expectError(res, 405, 'method_not_allowed');
  });
});
