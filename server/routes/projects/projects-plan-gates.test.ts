import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changePlan } from '../../admin/change-plan';
import { newId } from '../../domain/secrets';
import { subscriptionLimits } from '../../domain/subscription';
import { call, expectError, signIn } from '../../test-support/api-client';
import { startService, type RunningService } from '../../test-support/start-service';
import {
  CONTEXT,
  createTenant,
  ingest,
  logItem,
  NATIVE,
  type Tenant,
} from '../../test-support/telemetry';

/**
 * The subscription gates of the writes inside an organization (spec: Subscription readiness,
 * Limits, Errors): an organization follows its owner's plan. `GET /api/account` shows each
 * organization's gate with the code the write then answers.
 */

type Svc = RunningService<true>;
type Gate = {
  tier: string;
  state: string;
  access_state: string;
  projects: number;
  projects_per_organization: number;
  project_creation_blocker: string | null;
  ingest_key_creation_blocker: string | null;
  next: string;
  next_action: { code: string; target: string };
};
type Me = { organizations: { id: string; name: string; role: string; plan: Gate | null }[] };

const PRO_LIMIT = subscriptionLimits.pro.projects_per_organization;

describe('POST /api/projects and ingest keys: the subscription gate', () => {
  let svc: Svc;
  let tenant: Tenant;
  let token = '';
  const createProject = (name: string, t = token, organizationId?: string) =>
    call(svc.baseUrl, 'POST', '/api/projects', {
      token: t,
      json: { name, ...(organizationId ? { organization_id: organizationId } : {}) },
    });
  const createKey = (projectId: string, t = token) =>
    call(svc.baseUrl, 'POST', `/api/projects/${projectId}/ingest-keys`, { token: t, json: {} });
  const gateOf = async (organizationId: string, t = token) => {
    const me = (await call(svc.baseUrl, 'GET', '/api/account', { token: t })).body as Me;
    const org = me.organizations.find((o) => o.id === organizationId);
    if (!org?.plan) throw new Error('no plan for the organization');
    return org.plan;
  };
  const setPlan = async (email: string, tier: string, state?: string) => {
    const r = await changePlan(
      svc.deps.store,
      { email, tier, ...(state ? { state } : {}) },
      svc.clock.now(),
    );
    expect(r.ok, r.ok ? '' : r.error).toBe(true);
  };
  const projectCount = async (t = token) =>
    ((await call(svc.baseUrl, 'GET', '/api/projects', { token: t })).body as unknown[]).length;

  beforeAll(async () => {
    svc = await startService({ demo: true });
    // On the free plan, owning an organization that holds one project (made before the gate).
    tenant = await createTenant(svc, { password: 'tenant-password' });
    token = (await signIn(svc.baseUrl, tenant.email, tenant.password)).accessToken;
  });
  afterAll(() => svc.close());

  it('free: a project is 402 subscription_required (choose_plan), shown beforehand, nothing created', async () => {
    const gate = await gateOf(tenant.organizationId);
    expect(gate).toMatchObject({
      tier: 'free',
      state: 'free',
      access_state: 'active',
      projects: 1,
      projects_per_organization: 0,
      project_creation_blocker: 'subscription_required',
      ingest_key_creation_blocker: null,
      next_action: { code: 'choose_plan', target: 'pricing' },
    });
    const res = await createProject('Free Project');
    expectError(res, 402, 'subscription_required', { code: 'choose_plan', target: 'pricing' });
    expect((res.body as { next: string }).next).toBe(gate.next);
    expect(await projectCount()).toBe(1);
  });

  it('free: an ingest key for an existing project is allowed (keys count toward no limit)', async () => {
    const res = await createKey(tenant.projectId);
    expect(res.status, res.text).toBe(200);
  });

  it.each(['trialing', 'active'])('%s: a project and an ingest key are created', async (state) => {
    await setPlan(tenant.email, 'pro', state);
    const gate = await gateOf(tenant.organizationId);
    expect(gate).toMatchObject({
      tier: 'pro',
      state,
      access_state: 'active',
      project_creation_blocker: null,
      ingest_key_creation_blocker: null,
      next_action: { code: 'create_or_manage_organization', target: 'organization' },
    });
    const res = await createProject(`Project while ${state}`);
    expect(res.status, res.text).toBe(200);
    expect((await createKey((res.body as { id: string }).id)).status).toBe(200);
  });

  it.each(['past_due', 'paused', 'canceled'])(
    '%s: a project and an ingest key are 423 organization_paused (resume_subscription), nothing created',
    async (state) => {
      await setPlan(tenant.email, 'pro', state);
      const before = await projectCount();
      const gate = await gateOf(tenant.organizationId);
      expect(gate).toMatchObject({
        state,
        access_state: 'paused',
        project_creation_blocker: 'organization_paused',
        ingest_key_creation_blocker: 'organization_paused',
        next_action: { code: 'resume_subscription', target: 'billing' },
      });
      const project = await createProject(`Project while ${state}`);
      expectError(project, 423, 'organization_paused', {
        code: 'resume_subscription',
        target: 'billing',
      });
      expect((project.body as { next: string }).next).toBe(gate.next);
      expectError(await createKey(tenant.projectId), 423, 'organization_paused', {
        code: 'resume_subscription',
        target: 'billing',
      });
      expect(await projectCount()).toBe(before);
    },
  );

  it('a paused subscription does not stop ingestion; usage says what is paused', async () => {
    await setPlan(tenant.email, 'pro', 'past_due');
    const res = await ingest(svc, NATIVE, tenant.ingestKey, { ...CONTEXT, logs: [logItem()] });
    expect(res.status, res.text).toBe(200);
    const usage = (await call(svc.baseUrl, 'GET', '/api/account/usage', { token })).body as {
      state: string;
      next: string;
      next_action: { code: string };
    };
    expect(usage.state).toBe('ok');
    expect(usage.next_action.code).toBe('continue_sending_telemetry');
    expect(usage.next).toMatch(/past due/);
    await setPlan(tenant.email, 'pro');
    const active = (await call(svc.baseUrl, 'GET', '/api/account/usage', { token })).body as {
      next: string;
    };
    expect(active.next).not.toMatch(/past due|paused/);
  });

  it('at projects_per_organization a project is 422 organization_limit_exceeded naming the limit', async () => {
    await setPlan(tenant.email, 'pro');
    for (let n = await projectCount(); n < PRO_LIMIT; n++) {
      await svc.deps.store.projects.create({
        id: newId(),
        organizationId: tenant.organizationId,
        slug: `filler-${n}`,
        name: `Filler ${n}`,
        createdAt: svc.clock.now(),
      });
    }
    const gate = await gateOf(tenant.organizationId);
    expect(gate).toMatchObject({
      projects: PRO_LIMIT,
      project_creation_blocker: 'organization_limit_exceeded',
      ingest_key_creation_blocker: null,
      next_action: { code: 'manage_organization_limit', target: 'organization' },
    });
    const res = await createProject('One Too Many');
    expectError(res, 422, 'organization_limit_exceeded', {
      code: 'manage_organization_limit',
      target: 'organization',
    });
    expect(res.body).toMatchObject({ limit: 'projects_per_organization', next: gate.next });
    expect(await projectCount()).toBe(PRO_LIMIT);
    // Keys are not limited: the full organization's projects still get them.
    expect((await createKey(tenant.projectId)).status).toBe(200);
  });

  it('concurrent creates cannot pass projects_per_organization', async () => {
    const other = await createTenant(svc, { tier: 'pro', password: 'race-password' });
    const t = (await signIn(svc.baseUrl, other.email, other.password)).accessToken;
    for (let n = 1; n < PRO_LIMIT - 2; n++) {
      await svc.deps.store.projects.create({
        id: newId(),
        organizationId: other.organizationId,
        slug: `race-filler-${n}`,
        name: `Race filler ${n}`,
        createdAt: svc.clock.now(),
      });
    }
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => createProject(`Racing ${i}`, t)),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(2);
    const refused = results.filter((r) => r.status !== 200);
    expect(refused).toHaveLength(4);
    for (const r of refused) expectError(r, 422, 'organization_limit_exceeded');
    expect(await projectCount(t)).toBe(PRO_LIMIT);
  });

  it("the organization follows its owner's plan: a free admin adds to a paid organization, not to a paused one", async () => {
    const bruno = (await signIn(svc.baseUrl, 'bruno@lookout.dev', 'lookout-demo')).accessToken;
    const acme = ((await call(svc.baseUrl, 'GET', '/api/account', { token: bruno })).body as Me)
      .organizations[0];
    if (!acme) throw new Error('bruno belongs to no organization');
    const own = (await call(svc.baseUrl, 'GET', '/api/account/subscription', { token: bruno }))
      .body as { tier: string; limits: { projects_per_organization: number } };
    expect(own).toMatchObject({ tier: 'free', limits: { projects_per_organization: 0 } });
    expect(acme).toMatchObject({
      role: 'admin',
      plan: { tier: 'pro', state: 'active', project_creation_blocker: null },
    });
    const made = await createProject('Admin Project', bruno, acme.id);
    expect(made.status, made.text).toBe(200);

    await setPlan(svc.creds.email, 'pro', 'past_due');
    try {
      expect((await gateOf(acme.id, bruno)).project_creation_blocker).toBe('organization_paused');
      expectError(
        await createProject('Admin Project 2', bruno, acme.id),
        423,
        'organization_paused',
      );
      expectError(
        await createKey((made.body as { id: string }).id, bruno),
        423,
        'organization_paused',
      );
    } finally {
      await setPlan(svc.creds.email, 'pro');
    }
  });

  it('a member is 403 forbidden before the gate says anything', async () => {
    const chen = (await signIn(svc.baseUrl, 'chen@lookout.dev', 'lookout-demo')).accessToken;
    expectError(await createProject('Member Project', chen), 403, 'forbidden');
  });

  it('a retried create replays its project even once the organization is paused', async () => {
    await setPlan(tenant.email, 'pro', 'active');
    const other = await createTenant(svc, { tier: 'pro', password: 'replay-password' });
    const t = (await signIn(svc.baseUrl, other.email, other.password)).accessToken;
    const send = () =>
      call(svc.baseUrl, 'POST', '/api/projects', {
        token: t,
        json: { name: 'Replayed' },
        headers: { 'Idempotency-Key': 'gate-replay-1' },
      });
    const first = await send();
    expect(first.status, first.text).toBe(200);
    await setPlan(other.email, 'pro', 'paused');
    const again = await send();
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
  });
});
