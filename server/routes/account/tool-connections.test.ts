import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, signIn, type ApiResponse } from '../../test-support/api-client';
import { startService, type RunningService } from '../../test-support/start-service';
import { issuePersonalToken } from '../../auth/credentials';

type Svc = RunningService<true>;
type Row = Record<string, unknown>;
type Connection = Row & { id: string; token: string };

const DAY = 86_400_000;
const PATH = '/api/account/tool-connections';

const rows = (res: ApiResponse): Row[] => {
  expect(res.status, res.text).toBe(200);
  return res.body as Row[];
};
const str = (row: Row | undefined, key: string): string => {
  const v = row?.[key];
  if (typeof v !== 'string') throw new Error(`no ${key} in ${JSON.stringify(row)}`);
  return v;
};

describe('tool connections (the delegated credential)', () => {
  let svc: Svc;
  let owner = '';
  let inside = '';
  let outside = '';
  let covering: Connection;

  const create = (json: unknown, token = owner) => call(svc.baseUrl, 'POST', PATH, { token, json });
  const newConnection = async (json: Row = {}): Promise<Connection> => {
    const res = await create({ name: 'CI release check', project_ids: [inside], ...json });
    expect(res.status, res.text).toBe(200);
    return res.body as Connection;
  };
  const get = (path: string, token: string) => call(svc.baseUrl, 'GET', path, { token });

  beforeAll(async () => {
    svc = await startService({ demo: true });
    owner = svc.creds.account_token;
    inside = str(svc.creds.projects[0], 'id');
    outside = str(svc.creds.projects[1], 'id');
    covering = await newConnection();
  });
  afterAll(() => svc.close());

  describe('the account routes', () => {
    it('shows the token once and lists the connection with its projects, never the token', async () => {
      expect(covering.token).toMatch(/^lk_tc_/);
      expect(covering).toMatchObject({
        name: 'CI release check',
        state: 'active',
        projects: [{ id: inside, name: svc.creds.projects[0]?.name }],
        expires_at: null,
        revoked_at: null,
        last_used_at: null,
      });
      const list = rows(await get(PATH, owner));
      const listed = list.find((r) => r.id === covering.id);
      expect(listed).toBeDefined();
      expect(listed).not.toHaveProperty('token');
      expect(JSON.stringify(list)).not.toContain(covering.token);
      expect(listed?.uses_by_day).toHaveLength(7);
    });

    it('refuses a name, project list or expiry outside the limits, in the envelope', async () => {
      expectError(await create({ name: '', project_ids: [inside] }), 422, 'validation_failed');
      expectError(
        await create({ name: 'x'.repeat(101), project_ids: [inside] }),
        422,
        'validation_failed',
      );
      expectError(await create({ name: 'n', project_ids: [] }), 422, 'validation_failed');
      expectError(
        await create({ name: 'n', project_ids: Array.from({ length: 51 }, () => inside) }),
        422,
        'validation_failed',
      );
      expectError(
        await create({ name: 'n', project_ids: [inside, inside] }),
        422,
        'validation_failed',
      );
      expectError(
        await create({
          name: 'n',
          project_ids: [inside],
          expires_at: new Date(svc.clock.now() - 1000).toISOString(),
        }),
        422,
        'validation_failed',
      );
      expectError(
        await create({ name: 'n', project_ids: ['00000000-0000-4000-8000-000000000000'] }),
        404,
        'not_found',
      );
    });

    it('cannot be listed, created or revoked with a tool connection', async () => {
      expectError(await get(PATH, covering.token), 403, 'forbidden');
      expectError(
        await create({ name: 'n', project_ids: [inside] }, covering.token),
        403,
        'forbidden',
      );
      expectError(
        await call(svc.baseUrl, 'DELETE', `${PATH}/${covering.id}`, { token: covering.token }),
        403,
        'forbidden',
      );
    });

    it('works with the browser session and refuses an unknown connection id', async () => {
      const s = await signIn(svc.baseUrl, svc.creds.email, svc.creds.password);
      expect(
        rows(await call(svc.baseUrl, 'GET', PATH, { session: s.session })).length,
      ).toBeGreaterThan(0);
      expectError(
        await call(svc.baseUrl, 'DELETE', `${PATH}/00000000-0000-4000-8000-000000000000`, {
          token: owner,
        }),
        404,
        'not_found',
      );
    });

    it('counts uses per day and when it was last used', async () => {
      const c = await newConnection({ name: 'counted' });
      for (let i = 0; i < 3; i++) rows(await get(`/api/logs?project_id=${inside}`, c.token));
      const listed = rows(await get(PATH, owner)).find((r) => r.id === c.id);
      expect(listed?.last_used_at).toBe(new Date(svc.clock.now()).toISOString());
      const days = listed?.uses_by_day as { day: string; uses: number }[];
      expect(days.at(-1)).toEqual({
        day: new Date(svc.clock.now()).toISOString().slice(0, 10),
        uses: 3,
      });
    });
  });

  describe('the credential', () => {
    it('is refused at once after revoke, and after it expires', async () => {
      const c = await newConnection({ name: 'short' });
      rows(await get(`/api/logs?project_id=${inside}`, c.token));
      const revoked = await call(svc.baseUrl, 'DELETE', `${PATH}/${c.id}`, { token: owner });
      expect(revoked.status).toBe(200);
      expect(revoked.body).toMatchObject({ state: 'revoked' });
      const refused = await get(`/api/logs?project_id=${inside}`, c.token);
      expectError(refused, 401, 'unauthorized');
      expect(refused.body).toMatchObject({ next_action: { code: 'sign_in', target: 'auth' } });

      const e = await newConnection({
        name: 'expiring',
        expires_at: new Date(svc.clock.now() + DAY).toISOString(),
      });
      rows(await get(`/api/logs?project_id=${inside}`, e.token));
      svc.clock.advance(DAY);
      expectError(await get(`/api/logs?project_id=${inside}`, e.token), 401, 'unauthorized');
      svc.clock.advance(-DAY);
    });

    it('refuses every write and the account routes with 403 forbidden', async () => {
      const t = covering.token;
      const issue = { id: '00000000-0000-4000-8000-000000000001' };
      const writes: [string, string, unknown][] = [
        ['PATCH', `/api/telemetry/issues/${str(issue, 'id')}`, { status: 'resolved' }],
        [
          'POST',
          '/api/telemetry/issues/bulk',
          { issue_ids: [str(issue, 'id')], status: 'resolved' },
        ],
        ['POST', '/api/projects', { name: 'x' }],
        ['POST', `/api/projects/${inside}/ingest-keys`, {}],
        ['POST', '/api/feed/ticket', undefined],
        ['POST', '/api/support/tickets', { subject: 's', message: 'm' }],
        ['POST', '/api/auth/logout-all', undefined],
        ['PUT', `/api/telemetry/deployments/00000000-0000-4000-8000-000000000000`, {}],
      ];
      for (const [method, path, json] of writes) {
        const res = await call(svc.baseUrl, method, path, { token: t, json });
        expectError(res, 403, 'forbidden');
      }
      for (const path of [
        '/api/account',
        '/api/account/usage',
        '/api/account/subscription',
        '/api/logs/usage',
      ]) {
        expectError(await get(path, t), 403, 'forbidden');
      }
    });

    it('leaves account tokens and ingest keys as they were', async () => {
      rows(await get(`/api/logs?project_id=${outside}`, owner));
      const ingest = svc.creds.projects[0]?.ingest_key ?? '';
      expectError(await get(`/api/logs?project_id=${inside}`, ingest), 401, 'unauthorized');
    });
  });

  describe('organization owners', () => {
    it("see and can revoke a member's connection on their projects; other members cannot", async () => {
      const tokenOf = async (email: string) => {
        const a = await svc.deps.store.accounts.byEmail(email);
        if (!a) throw new Error(`no ${email}`);
        return issuePersonalToken(svc.deps, a.id);
      };
      const bruno = await tokenOf('bruno@lookout.dev');
      const chen = await tokenOf('chen@lookout.dev');
      const res = await create({ name: "Bruno's assistant", project_ids: [inside] }, bruno);
      expect(res.status, res.text).toBe(200);
      const made = res.body as Connection;
      expect(made).toMatchObject({ yours: true, created_by: { email: 'bruno@lookout.dev' } });

      const seen = rows(await get(PATH, owner)).find((r) => r.id === made.id);
      expect(seen).toMatchObject({ yours: false, created_by: { email: 'bruno@lookout.dev' } });
      expect(rows(await get(PATH, chen)).some((r) => r.id === made.id)).toBe(false);
      expectError(
        await call(svc.baseUrl, 'DELETE', `${PATH}/${made.id}`, { token: chen }),
        404,
        'not_found',
      );
      rows(await get(`/api/logs?project_id=${inside}`, made.token));

      const revoked = await call(svc.baseUrl, 'DELETE', `${PATH}/${made.id}`, { token: owner });
      expect(revoked.status, revoked.text).toBe(200);
      expectError(await get(`/api/logs?project_id=${inside}`, made.token), 401, 'unauthorized');
    });
  });
});
