import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError } from '../../test-support/api-client';
import {
  addPerson,
  addTeam,
  ingestIssues,
  issueIdOf,
  removeMembership,
  type Person,
} from '../../test-support/issues';
import { startService, type RunningService } from '../../test-support/start-service';
import { createTenant, issueItem, type Tenant } from '../../test-support/telemetry';

type Svc = RunningService<false>;
type Ownership = {
  project_id: string;
  rules: string;
  codeowners: string;
  updated_at: string | null;
  unresolved_owners: { source: string; line: number; owner: string }[];
};
type OwnersV2 = {
  issue_id: string;
  suggested_assignee: Record<string, unknown> | null;
  owners: Record<string, unknown>[];
  inputs: {
    files: string[];
    modules: string[];
    url: string | null;
    ownership_updated_at: string | null;
  };
};

const MAX = 128 * 1024;
const CHECKOUT_STACK =
  "TypeError: Cannot read properties of undefined (reading 'currency')\n    at CheckoutService.total (src/checkout/service.ts:112:18)\n    at async placeOrder (src/routes/checkout.ts:40:3)\n    at node_modules/hono/dist/compose.js:22:7";
const INVENTORY_STACK =
  'java.lang.IllegalStateException: reservation expired\n\tat com.acme.inventory.ReservationController.reserve(ReservationController.java:88)\n\tat com.acme.inventory.Handler.handle(Handler.java:12)';

describe('issue ownership and owners', () => {
  let svc: Svc;
  let tenant: Tenant;
  let owner: Person;
  let admin: Person;
  let member: Person;
  let leaver: Person;
  let outsider: Person;
  let checkoutTeam = '';
  let platformTeam = '';
  let checkoutIssue = '';
  let inventoryIssue = '';
  let bareIssue = '';

  const getOwnership = (projectId: string, token = owner.token) =>
    call(svc.baseUrl, 'GET', `/api/telemetry/issues/ownership?project_id=${projectId}`, { token });
  const putOwnership = (json: unknown, token = owner.token) =>
    call(svc.baseUrl, 'PUT', '/api/telemetry/issues/ownership', { token, json });
  const owners = (id: string, query = '', token = owner.token) =>
    call(svc.baseUrl, 'GET', `/api/telemetry/issues/${id}/owners${query ? `?${query}` : ''}`, {
      token,
    });
  const ownersV2 = async (id: string, token = owner.token) => {
    const res = await owners(id, 'response_version=2', token);
    expect(res.status, res.text).toBe(200);
    return res.body as OwnersV2;
  };
  const put = async (json: Record<string, unknown>, token = owner.token) => {
    const res = await putOwnership({ project_id: tenant.projectId, ...json }, token);
    expect(res.status, res.text).toBe(200);
    return res.body as Ownership;
  };

  beforeAll(async () => {
    svc = await startService();
    tenant = await createTenant(svc);
    owner = await addPerson(svc, tenant.organizationId, 'owner', 'Olga Owner');
    admin = await addPerson(svc, tenant.organizationId, 'admin', 'Ari Admin');
    member = await addPerson(svc, tenant.organizationId, 'member', null);
    leaver = await addPerson(svc, tenant.organizationId, 'admin', 'Lee Leaver');
    outsider = await addPerson(svc, null, null);
    checkoutTeam = await addTeam(svc, tenant.organizationId, 'checkout', [owner.accountId]);
    platformTeam = await addTeam(svc, tenant.organizationId, 'platform', [member.accountId]);
    await ingestIssues(svc, tenant.ingestKey, [
      issueItem({
        fingerprint: 'fp-checkout',
        stack_trace: CHECKOUT_STACK,
        attributes: { 'http.url': 'https://shop.acme.dev/checkout', region: 'eu-west-1' },
      }),
      issueItem({ fingerprint: 'fp-inventory', stack_trace: INVENTORY_STACK }),
      issueItem({ fingerprint: 'fp-bare', stack_trace: undefined, message: 'no stack' }),
    ]);
    checkoutIssue = await issueIdOf(svc, owner.token, tenant.projectId, 'fp-checkout');
    inventoryIssue = await issueIdOf(svc, owner.token, tenant.projectId, 'fp-inventory');
    bareIssue = await issueIdOf(svc, owner.token, tenant.projectId, 'fp-bare');
  });
  afterAll(async () => {
    await svc.close();
  });

  describe('GET /api/telemetry/issues/ownership', () => {
    it('starts empty, readable by any member', async () => {
      for (const token of [owner.token, member.token]) {
        const res = await getOwnership(tenant.projectId, token);
        expect(res.status, res.text).toBe(200);
        expect(res.body).toEqual({
          project_id: tenant.projectId,
          rules: '',
          codeowners: '',
          updated_at: null,
          unresolved_owners: [],
        });
      }
    });

    it('is 404 for an unreadable or unknown project', async () => {
      expectError(await getOwnership(tenant.projectId, outsider.token), 404, 'not_found');
      expectError(await getOwnership('00000000-0000-4000-8000-000000000000'), 404, 'not_found');
    });

    it('needs project_id as a UUID and no other key (422)', async () => {
      const bare = await call(svc.baseUrl, 'GET', '/api/telemetry/issues/ownership', {
        token: owner.token,
      });
      expectError(bare, 422, 'validation_failed');
      expectError(await getOwnership('not-a-uuid'), 422, 'validation_failed');
      expectError(await getOwnership(`${tenant.projectId}&extra=1`), 422, 'validation_failed');
    });

    it('answers 405 for other methods, never taking ownership as an issue id', async () => {
      const res = await call(svc.baseUrl, 'DELETE', '/api/telemetry/issues/ownership', {
        token: owner.token,
      });
      expectError(res, 405, 'method_not_allowed');
    });
  });

  describe('PUT /api/telemetry/issues/ownership', () => {
    it('stores the texts and lists owners naming nobody with their lines', async () => {
      const rules = `# checkout\npath:src/checkout/* ${admin.email} #checkout\npath:src/* ghost@nowhere.test #ghosts`;
      const body = await put({ rules, codeowners: '* @platform\n/src/ @missing' });
      expect(body).toEqual({
        project_id: tenant.projectId,
        rules,
        codeowners: '* @platform\n/src/ @missing',
        updated_at: new Date(svc.clock.now()).toISOString(),
        unresolved_owners: [
          { source: 'ownership_rule', line: 3, owner: 'ghost@nowhere.test' },
          { source: 'ownership_rule', line: 3, owner: '#ghosts' },
          { source: 'codeowners', line: 2, owner: '@missing' },
        ],
      });
      expect((await getOwnership(tenant.projectId, member.token)).body).toEqual(body);
    });

    it('keeps an omitted text, clears with an empty string, and moves updated_at only on a real change', async () => {
      const before = await put({ rules: 'path:src/* #checkout', codeowners: '* @platform' });
      svc.clock.advance(60_000);
      const same = await put({ rules: 'path:src/* #checkout' });
      expect(same.updated_at).toBe(before.updated_at);
      svc.clock.advance(60_000);
      const cleared = await put({ codeowners: '' });
      expect(cleared).toMatchObject({ rules: 'path:src/* #checkout', codeowners: '' });
      expect(cleared.updated_at).toBe(new Date(svc.clock.now()).toISOString());
      const both = await put({ rules: '' });
      expect(both).toMatchObject({ rules: '', codeowners: '' });
    });

    it('admins may change it; members get 403 and nothing changes', async () => {
      await put({ rules: 'url:*/cart* #checkout' }, admin.token);
      expectError(
        await putOwnership({ project_id: tenant.projectId, rules: '' }, member.token),
        403,
        'forbidden',
      );
      expect((await getOwnership(tenant.projectId)).body).toMatchObject({
        rules: 'url:*/cart* #checkout',
      });
    });

    it('is 404 for an unreadable or unknown project', async () => {
      expectError(
        await putOwnership({ project_id: tenant.projectId, rules: '' }, outsider.token),
        404,
        'not_found',
      );
      expectError(
        await putOwnership({ project_id: '00000000-0000-4000-8000-000000000000', rules: '' }),
        404,
        'not_found',
      );
    });

    it.each([
      ['rules', '# fine\n\nbogus #checkout', 'rules line 3:'],
      ['rules', 'path:src/* not-an-owner', 'rules line 1:'],
      ['rules', 'tag:region #checkout', 'rules line 1:'],
      ['codeowners', '* @platform\n!src/ @checkout', 'codeowners line 2:'],
      ['codeowners', '*.ts #checkout', 'codeowners line 1:'],
    ])('refuses invalid %s naming the line (422), changing nothing', async (field, text, named) => {
      const before = (await getOwnership(tenant.projectId)).body;
      const res = await putOwnership({ project_id: tenant.projectId, [field]: text });
      expectError(res, 422, 'validation_failed');
      expect((res.body as { error: string }).error).toContain(named);
      expect((await getOwnership(tenant.projectId)).body).toEqual(before);
    });

    it('checks the text before the project (422 before 404)', async () => {
      const res = await putOwnership(
        { project_id: tenant.projectId, rules: 'bogus' },
        outsider.token,
      );
      expectError(res, 422, 'validation_failed');
    });

    it('takes each text up to 128 KiB of UTF-8, counted in bytes', async () => {
      const full = '#'.repeat(MAX);
      expect((await put({ rules: full, codeowners: full })).rules).toHaveLength(MAX);
      for (const field of ['rules', 'codeowners'])
        expectError(
          await putOwnership({ project_id: tenant.projectId, [field]: `${full}#` }),
          422,
          'validation_failed',
        );
      // 65,537 characters, 131,073 bytes.
      expectError(
        await putOwnership({ project_id: tenant.projectId, rules: `#${'é'.repeat(MAX / 2)}` }),
        422,
        'validation_failed',
      );
      await put({ rules: '', codeowners: '' });
    });

    it.each([
      ['neither text', {}],
      ['a text that is not a string', { rules: 3 }],
      ['an unknown field', { rules: '', extra: true }],
    ])('refuses %s (422)', async (_, extra) => {
      expectError(
        await putOwnership({ project_id: tenant.projectId, ...extra }),
        422,
        'validation_failed',
      );
    });

    it('refuses a project_id that is not a UUID (422)', async () => {
      expectError(await putOwnership({ project_id: 'nope', rules: '' }), 422, 'validation_failed');
    });
  });

  describe('GET /api/telemetry/issues/{issue_id}/owners', () => {
    const userOf = (p: Person) => ({ user_id: p.accountId, name: p.name, email: p.email });

    it('puts the first matching rule, then CODEOWNERS, then recent activity (version 2)', async () => {
      const rules = `path:nothing/* #platform\npath:checkout/* ${admin.email} #checkout ghost@nowhere.test\npath:src/* #platform`;
      const codeowners = `* @platform\n/src/checkout/ ${member.email}`;
      const stored = await put({ rules, codeowners });
      const patch = await call(svc.baseUrl, 'PATCH', `/api/telemetry/issues/${checkoutIssue}`, {
        token: owner.token,
        json: { priority: 'low' },
      });
      expect(patch.status, patch.text).toBe(200);
      const body = await ownersV2(checkoutIssue);
      expect(body).toEqual({
        issue_id: checkoutIssue,
        suggested_assignee: { type: 'user', ...userOf(admin), assignee: admin.accountId },
        owners: [
          {
            type: 'user',
            ...userOf(admin),
            assignee: admin.accountId,
            source: 'ownership_rule',
            rule: `path:checkout/* ${admin.email} #checkout ghost@nowhere.test`,
            line: 2,
            matched: 'src/checkout/service.ts',
          },
          {
            type: 'team',
            team_id: checkoutTeam,
            slug: 'checkout',
            name: 'Checkout',
            assignee: `team:${checkoutTeam}`,
            source: 'ownership_rule',
            rule: `path:checkout/* ${admin.email} #checkout ghost@nowhere.test`,
            line: 2,
            matched: 'src/checkout/service.ts',
          },
          {
            type: 'user',
            ...userOf(member),
            assignee: member.accountId,
            source: 'codeowners',
            rule: `/src/checkout/ ${member.email}`,
            line: 2,
            matched: 'src/checkout/service.ts',
          },
          {
            type: 'user',
            ...userOf(owner),
            assignee: owner.accountId,
            source: 'recent_activity',
            rule: null,
            line: null,
            matched: 'priority',
          },
        ],
        inputs: {
          files: [
            'src/checkout/service.ts',
            'src/routes/checkout.ts',
            'node_modules/hono/dist/compose.js',
          ],
          modules: [
            'src/checkout/service',
            'src/routes/checkout',
            'node_modules/hono/dist/compose',
          ],
          url: 'https://shop.acme.dev/checkout',
          ownership_updated_at: stored.updated_at,
        },
      });
    });

    it('lists accounts only in version 1 (the default), for any member', async () => {
      for (const query of ['', 'response_version=1']) {
        const res = await owners(checkoutIssue, query, member.token);
        expect(res.status, res.text).toBe(200);
        expect(res.body).toEqual({
          issue_id: checkoutIssue,
          owners: [userOf(admin), userOf(member), userOf(owner)],
        });
      }
    });

    it('suggests a team when it comes first, matching a module', async () => {
      await put({ rules: 'module:com.acme.inventory.* #platform', codeowners: '' });
      const body = await ownersV2(inventoryIssue);
      expect(body.suggested_assignee).toEqual({
        type: 'team',
        team_id: platformTeam,
        slug: 'platform',
        name: 'Platform',
        assignee: `team:${platformTeam}`,
      });
      expect(body.owners[0]).toMatchObject({
        source: 'ownership_rule',
        line: 1,
        matched: 'com.acme.inventory.ReservationController',
      });
      expect((await owners(inventoryIssue)).body).toEqual({ issue_id: inventoryIssue, owners: [] });
    });

    it('matches the url and attributes by tag', async () => {
      await put({ rules: `url:*/checkout ${member.email}` });
      expect((await ownersV2(checkoutIssue)).owners[0]).toMatchObject({
        user_id: member.accountId,
        source: 'ownership_rule',
        matched: 'https://shop.acme.dev/checkout',
      });
      await put({ rules: `tag:region:EU-* ${admin.email}` });
      expect((await ownersV2(checkoutIssue)).owners[0]).toMatchObject({
        user_id: admin.accountId,
        matched: 'eu-west-1',
        rule: `tag:region:EU-* ${admin.email}`,
      });
    });

    it('lets the last matching CODEOWNERS line win', async () => {
      await put({
        rules: '',
        codeowners: `*.ts @checkout\nsrc/routes/ ${admin.email}\n*.java @platform`,
      });
      const body = await ownersV2(checkoutIssue);
      expect(body.owners[0]).toMatchObject({
        user_id: admin.accountId,
        source: 'codeowners',
        line: 2,
        matched: 'src/routes/checkout.ts',
      });
    });

    it('never suggests owners naming nobody; null when no owner can be assigned', async () => {
      await put({ rules: 'path:* ghost@nowhere.test #ghosts', codeowners: '* @nobody' });
      const body = await ownersV2(bareIssue);
      expect(body).toMatchObject({ suggested_assignee: null, owners: [] });
      expect(body.inputs).toMatchObject({ files: [], modules: [], url: null });
      const checkout = await ownersV2(checkoutIssue);
      expect(checkout.owners.map((o) => o.source)).toEqual(['recent_activity']);
    });

    it('leaves out recent actors who can no longer read the project', async () => {
      await put({ rules: '', codeowners: '' });
      const res = await call(svc.baseUrl, 'PATCH', `/api/telemetry/issues/${bareIssue}`, {
        token: leaver.token,
        json: { status: 'resolved' },
      });
      expect(res.status, res.text).toBe(200);
      expect((await ownersV2(bareIssue)).suggested_assignee).toMatchObject({
        user_id: leaver.accountId,
      });
      await removeMembership(svc, tenant.organizationId, leaver.accountId);
      expect(await ownersV2(bareIssue)).toMatchObject({ suggested_assignee: null, owners: [] });
    });

    it('is 404 for an unreadable or unknown issue, 400 for a bad id, 422 for another version', async () => {
      expectError(await owners(checkoutIssue, '', outsider.token), 404, 'not_found');
      expectError(await owners('00000000-0000-4000-8000-000000000000'), 404, 'not_found');
      expectError(await owners('nope'), 400, 'invalid_path');
      expectError(await owners(checkoutIssue, 'response_version=3'), 422, 'validation_failed');
    });
  });
});
