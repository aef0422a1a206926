import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changePlan } from '../../admin/change-plan';
import { newId } from '../../domain/secrets';
import { call, expectError, signIn } from '../../test-support/api-client';
import { startService, type RunningService } from '../../test-support/start-service';
import { createTenant, type Tenant } from '../../test-support/telemetry';

type Svc = RunningService<true>;
type Readiness = Record<string, unknown> & {
  organization_creation_blocker: string | null;
  next_action: { code: string; target: string };
};

describe('GET /api/account/subscription', () => {
  let svc: Svc;
  let tenant: Tenant;
  let token = '';
  const read = async (t = token) => {
    const res = await call(svc.baseUrl, 'GET', '/api/account/subscription', { token: t });
    expect(res.status, res.text).toBe(200);
    return res.body as Readiness;
  };
  const setPlan = async (tier: string, extra: { state?: string; interval?: string } = {}) => {
    const r = await changePlan(
      svc.deps.store,
      { email: tenant.email, tier, ...extra },
      svc.clock.now(),
    );
    expect(r.ok, r.ok ? '' : r.error).toBe(true);
  };

  beforeAll(async () => {
    svc = await startService({ demo: true });
    tenant = await createTenant(svc, { password: 'tenant-password' });
    token = (await signIn(svc.baseUrl, tenant.email, tenant.password)).accessToken;
  });
  afterAll(() => svc.close());

  it('a free account returns exactly the spec shape', async () => {
    const chen = await signIn(svc.baseUrl, 'chen@lookout.dev', 'lookout-demo');
    const me = (await call(svc.baseUrl, 'GET', '/api/account', { token: chen.accessToken }))
      .body as {
      account_id: string;
    };
    expect(await read(chen.accessToken)).toEqual({
      account_id: me.account_id,
      tier: 'free',
      billing_interval: 'none',
      state: 'free',
      access_state: 'active',
      current_period_start: null,
      current_period_end: null,
      renews_at: null,
      cancels_at: null,
      organization_creation_allowed: false,
      organization_creation_blocker: 'subscription_required',
      limits: {
        organizations: 0,
        members_per_organization: 0,
        projects_per_organization: 0,
        invitations_per_day: 0,
      },
      next: expect.any(String),
      next_action: { code: 'choose_plan', target: 'pricing' },
    });
  });

  it('a paid active account below its organization limit may create one (null blocker)', async () => {
    await setPlan('pro');
    const r = await read();
    expect(r).toMatchObject({
      tier: 'pro',
      billing_interval: 'monthly',
      state: 'active',
      access_state: 'active',
      current_period_start: '2025-03-03T00:00:00.000Z',
      current_period_end: '2025-04-03T00:00:00.000Z',
      renews_at: '2025-04-03T00:00:00.000Z',
      cancels_at: null,
      organization_creation_allowed: true,
      organization_creation_blocker: null,
      next_action: { code: 'create_or_manage_organization', target: 'organization' },
    });
    expect((r.limits as { organizations: number }).organizations).toBeGreaterThan(1);
  });

  it('an active subscription renews: past its end the period rolls forward', async () => {
    await setPlan('scale', { interval: 'yearly' });
    svc.clock.set(Date.parse('2026-05-01T00:00:00Z'));
    const s = await signIn(svc.baseUrl, tenant.email, tenant.password);
    expect(await read(s.accessToken)).toMatchObject({
      tier: 'scale',
      billing_interval: 'yearly',
      current_period_start: '2026-03-03T00:00:00.000Z',
      current_period_end: '2027-03-03T00:00:00.000Z',
      renews_at: '2027-03-03T00:00:00.000Z',
    });
    svc.clock.set(Date.parse('2025-03-03T09:00:00Z'));
    token = (await signIn(svc.baseUrl, tenant.email, tenant.password)).accessToken;
  });

  it.each([
    ['trialing', 'active', 'renews'],
    ['past_due', 'paused', 'renews'],
    ['paused', 'paused', 'none'],
    ['canceled', 'paused', 'cancels'],
  ])('state %s has access_state %s', async (state, access, end) => {
    await setPlan('pro', { state });
    const r = await read();
    expect(r.state).toBe(state);
    expect(r.access_state).toBe(access);
    expect(r.renews_at).toBe(end === 'renews' ? '2025-04-03T00:00:00.000Z' : null);
    expect(r.cancels_at).toBe(end === 'cancels' ? '2025-04-03T00:00:00.000Z' : null);
    if (access === 'paused') {
      expect(r.organization_creation_allowed).toBe(false);
      expect(r.organization_creation_blocker).toBe('subscription_inactive');
      expect(r.next_action).toEqual({ code: 'resume_subscription', target: 'billing' });
    } else {
      expect(r.organization_creation_blocker).toBeNull();
    }
  });

  it('a paid account at its organization limit is blocked with organization_limit_exceeded', async () => {
    await setPlan('pro');
    for (let i = 0; i < 2; i++) {
      const id = newId();
      await svc.deps.store.accounts.createOrganization({
        id,
        slug: `extra-${id.slice(0, 8)}`,
        name: 'Extra',
        createdAt: svc.clock.now(),
      });
      await svc.deps.store.accounts.addMember({
        organizationId: id,
        accountId: tenant.accountId,
        role: 'owner',
      });
    }
    const r = await read();
    expect(r).toMatchObject({
      tier: 'pro',
      access_state: 'active',
      organization_creation_allowed: false,
      organization_creation_blocker: 'organization_limit_exceeded',
      next_action: { code: 'manage_organization_limit', target: 'organization' },
    });
  });

  it('back on the free plan: the free shape again, and usage follows the plan', async () => {
    await setPlan('free');
    const r = await read();
    expect(r).toMatchObject({
      tier: 'free',
      billing_interval: 'none',
      state: 'free',
      current_period_start: null,
      organization_creation_blocker: 'subscription_required',
    });
    const usage = await call(svc.baseUrl, 'GET', '/api/account/usage', { token });
    expect((usage.body as { plan: unknown }).plan).toEqual({ tier: 'free', status: 'free' });
  });

  it('the usage plan status follows the subscription state', async () => {
    await setPlan('pro', { state: 'canceled' });
    const usage = await call(svc.baseUrl, 'GET', '/api/account/usage', { token });
    expect((usage.body as { plan: unknown }).plan).toEqual({ tier: 'pro', status: 'disabled' });
    await setPlan('pro', { state: 'trialing' });
    const trial = await call(svc.baseUrl, 'GET', '/api/account/usage', { token });
    expect((trial.body as { plan: unknown }).plan).toEqual({ tier: 'pro', status: 'trial' });
  });

  it('the plan change refuses what cannot be', async () => {
    const store = svc.deps.store;
    const now = svc.clock.now();
    expect(await changePlan(store, { email: tenant.email, tier: 'gold' }, now)).toMatchObject({
      ok: false,
    });
    expect(
      await changePlan(store, { email: tenant.email, tier: 'free', state: 'past_due' }, now),
    ).toMatchObject({ ok: false });
    expect(
      await changePlan(store, { email: tenant.email, tier: 'pro', state: 'free' }, now),
    ).toMatchObject({ ok: false });
    expect(
      await changePlan(store, { email: 'nobody@lookout.dev', tier: 'pro' }, now),
    ).toMatchObject({ ok: false });
  });

  it('is read-only: GET twice gives the same answer', async () => {
    expect(await read()).toEqual(await read());
  });

  it('an unknown query key is 422 validation_failed', async () => {
    const res = await call(svc.baseUrl, 'GET', '/api/account/subscription?tier=pro', { token });
    expectError(res, 422, 'validation_failed', { code: 'fix_request', target: 'request' });
  });

  it('without a credential is 401 unauthorized, never a free plan', async () => {
    const res = await call(svc.baseUrl, 'GET', '/api/account/subscription');
    expectError(res, 401, 'unauthorized', { code: 'sign_in', target: 'auth' });
    expect(res.body).not.toHaveProperty('tier');
  });

  it('accepts the browser session cookie alone', async () => {
    const s = await signIn(svc.baseUrl, 'chen@lookout.dev', 'lookout-demo');
    const res = await call(svc.baseUrl, 'GET', '/api/account/subscription', { session: s.session });
    expect(res.status, res.text).toBe(200);
    expect((res.body as { tier: string }).tier).toBe('free');
  });

  it('the demo owner is on the pro plan from the first start (its organization holds projects)', async () => {
    const owner = await svc.deps.store.accounts.byEmail('demo@lookout.dev');
    expect(await svc.deps.store.usage.subscriptionOf(owner!.id)).toMatchObject({
      tier: 'pro',
      state: 'active',
    });
  });

  it('demo members stay on the free plan so the console can show the gate', async () => {
    const member = await svc.deps.store.accounts.byEmail('chen@lookout.dev');
    expect(await svc.deps.store.usage.subscriptionOf(member!.id)).toMatchObject({
      tier: 'free',
      state: 'free',
    });
  });
});
