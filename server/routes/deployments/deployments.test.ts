import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, signIn, type ApiResponse } from '../../test-support/api-client';
import { addPerson, type Person } from '../../test-support/issues';
import { startService, type RunningService } from '../../test-support/start-service';
import { createTenant, type Tenant } from '../../test-support/telemetry';

type Deployment = Record<string, unknown> & { deployment_id: string; finished_at: string };
type Page = {
  deployments: Deployment[];
  next_cursor: { time: string; project_id: string; deployment_id: string } | null;
};

const errorText = (res: ApiResponse) => (res.body as { error: string }).error;
const ids = (res: ApiResponse) => (res.body as Page).deployments.map((d) => d.deployment_id);

describe('deployments', () => {
  let svc: RunningService<true>;
  let owner = '';
  let projectA = '';
  let projectB = '';
  let admin = '';
  let member: Person;
  let tenant: Tenant;

  const body = (o: Record<string, unknown> = {}) => ({
    project_id: projectA,
    release: 'checkout-api@2.14.1',
    environment: 'production',
    service_name: 'checkout-api',
    status: 'succeeded',
    started_at: '2025-03-02T10:00:00Z',
    finished_at: '2025-03-02T10:07:30.250Z',
    commit_sha: '9F1C2D3E4B5A69788776655443322110FFEEDDCC',
    ...o,
  });
  const put = (id: string, json: unknown, token = owner) =>
    call(svc.baseUrl, 'PUT', `/api/telemetry/deployments/${id}`, { token, json });
  const get = (path: string, token = owner) => call(svc.baseUrl, 'GET', path, { token });
  const list = (query = '', token = owner) =>
    get(`/api/telemetry/deployments${query ? `?${query}` : ''}`, token);

  beforeAll(async () => {
    svc = await startService({ demo: true });
    owner = svc.creds.account_token;
    projectA = svc.creds.projects[0]?.id ?? '';
    projectB = svc.creds.projects[1]?.id ?? '';
    admin = (await signIn(svc.baseUrl, 'bruno@lookout.dev', 'lookout-demo')).accessToken;
    tenant = await createTenant(svc);
    member = await addPerson(svc, tenant.organizationId, 'member');
  });
  afterAll(async () => {
    await svc.close();
  });

  describe('PUT /api/telemetry/deployments/{deployment_id}', () => {
    it('stores a new deployment with 200, not 201, and returns the stored record', async () => {
      const res = await put('checkout-api-production-2.14.1-1', body());
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({
        deployment_id: 'checkout-api-production-2.14.1-1',
        project_id: projectA,
        release: 'checkout-api@2.14.1',
        environment: 'production',
        service_name: 'checkout-api',
        status: 'succeeded',
        started_at: '2025-03-02T10:00:00.000Z',
        finished_at: '2025-03-02T10:07:30.250Z',
        commit_sha: '9f1c2d3e4b5a69788776655443322110ffeeddcc',
        created_at: new Date(svc.clock.now()).toISOString(),
      });
    });

    it('answers a retry with the same body with the stored deployment (200), also later', async () => {
      const first = await put('retry-1', body({ commit_sha: undefined }));
      expect(first.status).toBe(200);
      svc.clock.advance(60_000);
      // The same instants written differently are the same body.
      const again = await put(
        'retry-1',
        body({
          commit_sha: undefined,
          started_at: '2025-03-02T11:00:00+01:00',
          finished_at: '2025-03-02T10:07:30.250Z',
        }),
      );
      expect(again.status, again.text).toBe(200);
      expect(again.body).toEqual(first.body);
      expect((again.body as Deployment).commit_sha).toBeNull();
    });

    it('refuses the same id with a different body with 409 and keeps the stored one', async () => {
      await put('conflict-1', body());
      for (const change of [
        { status: 'failed' },
        { release: 'checkout-api@2.14.2' },
        { finished_at: '2025-03-02T10:07:30.251Z' },
        { commit_sha: undefined },
        { commit_sha: 'abcdef1' },
      ]) {
        const res = await put('conflict-1', body(change));
        expectError(res, 409, 'idempotency_conflict');
      }
      const stored = await get(`/api/telemetry/deployments/conflict-1?project_id=${projectA}`);
      expect(stored.status).toBe(200);
      expect(stored.body).toMatchObject({ status: 'succeeded', release: 'checkout-api@2.14.1' });
    });

    it('keeps deployment ids per project', async () => {
      expect((await put('shared-id', body())).status).toBe(200);
      expect((await put('shared-id', body({ project_id: projectB }))).status).toBe(200);
    });

    it('needs the owner role: an admin and a member get 403 and nothing is stored', async () => {
      expectError(await put('by-admin', body(), admin), 403, 'forbidden');
      const tenantBody = body({ project_id: tenant.projectId });
      expectError(await put('by-member', tenantBody, member.token), 403, 'forbidden');
      expectError(
        await get(`/api/telemetry/deployments/by-admin?project_id=${projectA}`),
        404,
        'not_found',
      );
    });

    it('answers 404 for a project the account cannot read, before the role', async () => {
      const res = await put('elsewhere', body({ project_id: tenant.projectId }));
      expectError(res, 404, 'not_found');
      expect(errorText(res)).toBe('project not found');
    });

    it('refuses bad bodies with 422 and bad ids with 400 invalid_path', async () => {
      const bad: Record<string, unknown>[] = [
        { status: 'rolled_back' },
        { release: ' ' },
        { environment: '' },
        { service_name: 'x'.repeat(201) },
        { started_at: '2025-03-02 10:00:00' },
        { finished_at: '1741000000000' },
        { finished_at: '2025-03-02T09:59:59Z' },
        { commit_sha: 'not-hex' },
        { commit_sha: 'abc' },
        { project_id: 'nope' },
        { extra: true },
      ];
      for (const change of bad) {
        const res = await put('bad-body', body(change));
        expectError(res, 422, 'validation_failed');
      }
      const { release: _release, ...withoutRelease } = body();
      expectError(await put('bad-body', withoutRelease), 422, 'validation_failed');
      expect(errorText(await put('bad-body', body({ finished_at: '2025-03-02T09:00:00Z' })))).toBe(
        'finished_at must not be earlier than started_at',
      );
      for (const id of ['-starts-with-dash', '.hidden', 'has%20space', 'x'.repeat(129), 'a%2Fb'])
        expectError(await put(id, body()), 400, 'invalid_path');
      expect((await put('x'.repeat(128), body())).status).toBe(200);
      expect((await put('A.b_c~d-1', body())).status).toBe(200);
    });

    it('answers 405 for other methods', async () => {
      for (const method of ['POST', 'DELETE', 'PATCH']) {
        expectError(
          await call(svc.baseUrl, method, '/api/telemetry/deployments/any', { token: owner }),
          405,
          'method_not_allowed',
        );
        expectError(
          await call(svc.baseUrl, method, '/api/telemetry/deployments', { token: owner }),
          405,
          'method_not_allowed',
        );
      }
    });

    it('needs an account credential', async () => {
      expectError(await put('anon', body(), 'lk_at_nope'), 401, 'unauthorized');
    });
  });

  describe('GET /api/telemetry/deployments/{deployment_id}', () => {
    it('reads a stored deployment of a readable project; members read too', async () => {
      const res = await get(
        `/api/telemetry/deployments/checkout-api-production-2.14.1-1?project_id=${projectA}`,
      );
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ deployment_id: 'checkout-api-production-2.14.1-1' });
      const chen = (await signIn(svc.baseUrl, 'chen@lookout.dev', 'lookout-demo')).accessToken;
      const asMember = await get(
        `/api/telemetry/deployments/checkout-api-production-2.14.1-1?project_id=${projectA}`,
        chen,
      );
      expect(asMember.status).toBe(200);
    });

    it('is 404 for unknown ids, other projects and unreadable projects', async () => {
      expectError(
        await get(`/api/telemetry/deployments/unknown?project_id=${projectA}`),
        404,
        'not_found',
      );
      expectError(
        await get(
          `/api/telemetry/deployments/checkout-api-production-2.14.1-1?project_id=${projectB}`,
        ),
        404,
        'not_found',
      );
      expectError(
        await get(`/api/telemetry/deployments/retry-1?project_id=${projectA}`, member.token),
        404,
        'not_found',
      );
    });

    it('needs project_id as a UUID and no other key', async () => {
      expectError(await get('/api/telemetry/deployments/retry-1'), 422, 'validation_failed');
      expectError(
        await get('/api/telemetry/deployments/retry-1?project_id=nope'),
        422,
        'validation_failed',
      );
      expectError(
        await get(`/api/telemetry/deployments/retry-1?project_id=${projectA}&status=failed`),
        422,
        'validation_failed',
      );
    });
  });

  describe('GET /api/telemetry/deployments', () => {
    const P = '2025-02-10T00:00:00.000Z';
    const finish = (minutes: number) => new Date(Date.parse(P) + minutes * 60_000).toISOString();

    beforeAll(async () => {
      // projectB: five deployments finishing at minutes 1..5, the third failed.
      for (let m = 1; m <= 5; m++) {
        const res = await put(
          `list-${m}`,
          body({
            project_id: projectB,
            status: m === 3 ? 'failed' : 'succeeded',
            started_at: finish(m - 1),
            finished_at: finish(m),
          }),
        );
        expect(res.status, res.text).toBe(200);
      }
    });

    it('is always a page, latest finish first', async () => {
      const res = await list(`project_id=${projectB}&until=${finish(5)}`);
      expect(res.status).toBe(200);
      expect(ids(res)).toEqual(['list-5', 'list-4', 'list-3', 'list-2', 'list-1']);
      expect((res.body as Page).next_cursor).toBeNull();
      const none = await list(`project_id=${projectB}&since=2030-01-01T00:00:00Z`);
      expect(none.body).toEqual({ deployments: [], next_cursor: null });
    });

    it('compares since and until, both inclusive, with finished_at', async () => {
      const res = await list(`project_id=${projectB}&since=${finish(2)}&until=${finish(4)}`);
      expect(ids(res)).toEqual(['list-4', 'list-3', 'list-2']);
      const one = await list(`project_id=${projectB}&since=${finish(3)}&until=${finish(3)}`);
      expect(ids(one)).toEqual(['list-3']);
      const offset = await list(
        `project_id=${projectB}&since=${encodeURIComponent('2025-02-10T01:02:00+01:00')}&until=${finish(2)}`,
      );
      expect(ids(offset)).toEqual(['list-2']);
    });

    it('filters by status', async () => {
      const res = await list(`project_id=${projectB}&status=failed`);
      expect(ids(res)).toEqual(['list-3']);
    });

    it('pages with the three cursor fields until next_cursor is null', async () => {
      const seen: string[] = [];
      const query = `project_id=${projectB}&until=${finish(5)}&limit=2`;
      let next: Page['next_cursor'] = null;
      do {
        const res = await list(
          next
            ? `${query}&cursor_time=${next.time}&cursor_project_id=${next.project_id}&cursor_deployment_id=${next.deployment_id}`
            : query,
        );
        expect(res.status, res.text).toBe(200);
        const page = res.body as Page;
        expect(page.deployments.length).toBeLessThanOrEqual(2);
        seen.push(...page.deployments.map((d) => d.deployment_id));
        next = page.next_cursor;
      } while (next);
      expect(seen).toEqual(['list-5', 'list-4', 'list-3', 'list-2', 'list-1']);
    });

    it('reads every readable project without project_id; an unreadable one gives an empty page', async () => {
      const all = await list('limit=100');
      const projects = new Set((all.body as Page).deployments.map((d) => d.project_id));
      expect([...projects].sort()).toEqual([projectA, projectB].sort());
      const other = await list(`project_id=${tenant.projectId}`);
      expect(other.status).toBe(200);
      expect(other.body).toEqual({ deployments: [], next_cursor: null });
    });

    it('refuses limit outside 1 to 100 and other bad values with 422', async () => {
      for (const limit of ['0', '101', '-1', '1.5', 'ten', '']) {
        const res = await list(`limit=${limit}`);
        expectError(res, 422, 'validation_failed');
        expect(errorText(res)).toBe('limit must be an integer from 1 to 100');
      }
      expect((await list('limit=100')).status).toBe(200);
      expect((await list('limit=1')).status).toBe(200);
      const bad = [
        'since=24h',
        'until=7d',
        `since=${finish(3)}&until=${finish(2)}`,
        'status=rolled_back',
        'project_id=nope',
        `project_ids=${projectA},${projectB}`,
        'pagination=cursor',
        `cursor_time=${finish(1)}`,
        `cursor_time=nope&cursor_project_id=${projectB}&cursor_deployment_id=x`,
        `cursor_time=${finish(1)}&cursor_project_id=nope&cursor_deployment_id=x`,
        `cursor_time=${finish(1)}&cursor_project_id=${projectB}&cursor_deployment_id=`,
      ];
      for (const q of bad) expectError(await list(q), 422, 'validation_failed');
      expect(errorText(await list(`cursor_time=${finish(1)}`))).toBe(
        'all deployment cursor fields must be sent together: cursor_time, cursor_project_id, cursor_deployment_id',
      );
    });
  });
});
