import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, signIn, type CallOptions } from '../../test-support/api-client';
import { startService, type RunningService } from '../../test-support/start-service';
import { tableValues } from '../../test-support/store-sql';

type Svc = RunningService<true>;
type Project = {
  id: string;
  organization_id: string;
  name: string;
  slug: string;
  role: string;
  created_at: string;
};
type IngestKey = {
  id: string;
  project_id: string;
  name: string;
  key: string;
  key_prefix: string;
  created_at: string;
  expires_at: string | null;
};

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const rfc3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z$/;
const unknownProject = '3f0c6c35-4c7e-4c7a-9a3e-2b8b1f0e8a11';

const list = (svc: Svc, token: string) => call(svc.baseUrl, 'GET', '/api/projects', { token });
const createProject = (svc: Svc, opts: CallOptions) =>
  call(svc.baseUrl, 'POST', '/api/projects', opts);
const createKey = (svc: Svc, projectId: string, opts: CallOptions) =>
  call(svc.baseUrl, 'POST', `/api/projects/${projectId}/ingest-keys`, opts);

describe('GET /api/projects', () => {
  let svc: Svc;
  beforeAll(async () => {
    svc = await startService({ demo: true });
  });
  afterAll(() => svc.close());

  it('returns the readable projects as a bare array with their fields', async () => {
    const res = await list(svc, svc.creds.account_token);
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    const rows = res.body as Project[];
    expect(rows).toHaveLength(3);
    expect(rows.map((p) => p.id).sort()).toEqual(svc.creds.projects.map((p) => p.id).sort());
    for (const p of rows) {
      expect(Object.keys(p).sort()).toEqual([
        'created_at',
        'id',
        'name',
        'organization_id',
        'role',
        'slug',
      ]);
      expect(p.id).toMatch(uuid);
      expect(p.organization_id).toMatch(uuid);
      expect(p.role).toBe('owner');
      expect(p.created_at).toMatch(rfc3339);
      expect(p.slug).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
    }
    expect(rows.map((p) => p.name).sort()).toEqual([
      'Checkout API',
      'Mobile App',
      'Storefront Web',
    ]);
    expect(new Set(rows.map((p) => p.organization_id)).size).toBe(1);
  });

  it("a member sees the same projects with the role 'member'", async () => {
    const chen = await signIn(svc.baseUrl, 'chen@lookout.dev', 'lookout-demo');
    const res = await list(svc, chen.accessToken);
    expect(res.status).toBe(200);
    const rows = res.body as Project[];
    expect(rows).toHaveLength(3);
    expect(rows.every((p) => p.role === 'member')).toBe(true);
  });
});

describe('POST /api/projects', () => {
  let svc: Svc;
  let token = '';
  let memberToken = '';
  beforeAll(async () => {
    svc = await startService({ demo: true });
    token = (await signIn(svc.baseUrl, svc.creds.email, svc.creds.password)).accessToken;
    memberToken = (await signIn(svc.baseUrl, 'chen@lookout.dev', 'lookout-demo')).accessToken;
  });
  afterAll(() => svc.close());

  it('creates a project (200) that then appears in the list', async () => {
    const res = await createProject(svc, { token, json: { name: 'Billing Worker' } });
    expect(res.status, res.text).toBe(200);
    const p = res.body as Project;
    expect(p).toMatchObject({ name: 'Billing Worker', slug: 'billing-worker', role: 'owner' });
    expect(p.id).toMatch(uuid);
    expect(p.created_at).toBe(new Date(svc.clock.now()).toISOString());
    const rows = (await list(svc, token)).body as Project[];
    expect(rows.find((r) => r.id === p.id)).toEqual(p);
  });

  it('a second project of the same name gets its own slug', async () => {
    const a = (await createProject(svc, { token, json: { name: 'Twin' } })).body as Project;
    const b = (await createProject(svc, { token, json: { name: 'Twin' } })).body as Project;
    expect(a.slug).toBe('twin');
    expect(b.slug).toBe('twin-2');
  });

  it('a slug another create takes between the check and the write goes to the next one', async () => {
    expect((await createProject(svc, { token, json: { name: 'Slug Race' } })).status).toBe(200);
    // The check misses that project, as it does when another instance creates it at that moment.
    const projects = svc.deps.store.projects;
    const slugTaken = projects.slugTaken;
    let missed = 0;
    projects.slugTaken = async (organizationId, slug) => {
      if (slug === 'slug-race' && missed++ === 0) return false;
      return slugTaken.call(projects, organizationId, slug);
    };
    try {
      const res = await createProject(svc, { token, json: { name: 'Slug Race' } });
      expect(res.status, res.text).toBe(200);
      expect((res.body as Project).slug).toBe('slug-race-2');
    } finally {
      projects.slugTaken = slugTaken;
    }
    expect(missed).toBe(2);
    const named = ((await list(svc, token)).body as Project[]).filter(
      (p) => p.name === 'Slug Race',
    );
    expect(named.map((p) => p.slug).sort()).toEqual(['slug-race', 'slug-race-2']);
  });

  it("role 'member' is 403 forbidden and creates nothing", async () => {
    const before = ((await list(svc, token)).body as Project[]).length;
    expectError(
      await createProject(svc, { token: memberToken, json: { name: 'Nope' } }),
      403,
      'forbidden',
    );
    expect(((await list(svc, token)).body as Project[]).length).toBe(before);
  });

  it('an empty or wrongly typed name is 422 validation_failed', async () => {
    expectError(
      await createProject(svc, { token, json: { name: '   ' } }),
      422,
      'validation_failed',
    );
    expectError(await createProject(svc, { token, json: { name: 7 } }), 422, 'validation_failed');
  });

  it('without a bearer is 401, and the session cookie is not a bearer', async () => {
    const s = await signIn(svc.baseUrl, svc.creds.email, svc.creds.password);
    expectError(await createProject(svc, { json: { name: 'x' } }), 401, 'unauthorized');
    expectError(
      await createProject(svc, { session: s.session, json: { name: 'x' } }),
      401,
      'unauthorized',
    );
  });

  describe('Idempotency-Key', () => {
    it('the same key and body replay the same project and create only one', async () => {
      const before = ((await list(svc, token)).body as Project[]).length;
      const opts = {
        token,
        json: { name: 'Replay Me' },
        headers: { 'Idempotency-Key': 'create-replay-1' },
      };
      const first = await createProject(svc, opts);
      const second = await createProject(svc, opts);
      expect(first.status).toBe(200);
      expect(second.status).toBe(200);
      expect(second.body).toEqual(first.body);
      const rows = (await list(svc, token)).body as Project[];
      expect(rows.length).toBe(before + 1);
      expect(rows.filter((r) => r.name === 'Replay Me')).toHaveLength(1);
    });

    it('concurrent sends of one key create only one project', async () => {
      const opts = {
        token,
        json: { name: 'Racer' },
        headers: { 'Idempotency-Key': 'create-race-1' },
      };
      const results = await Promise.all([1, 2, 3, 4].map(() => createProject(svc, opts)));
      const ids = new Set(results.map((r) => (r.body as Project).id));
      expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
      expect(ids.size).toBe(1);
      const rows = (await list(svc, token)).body as Project[];
      expect(rows.filter((r) => r.name === 'Racer')).toHaveLength(1);
    });

    it('the same key with another body is 409 idempotency_conflict', async () => {
      const headers = { 'Idempotency-Key': 'create-conflict-1' };
      expect((await createProject(svc, { token, json: { name: 'First' }, headers })).status).toBe(
        200,
      );
      const res = await createProject(svc, { token, json: { name: 'Second' }, headers });
      expectError(res, 409, 'idempotency_conflict');
      const rows = (await list(svc, token)).body as Project[];
      expect(rows.some((r) => r.name === 'Second')).toBe(false);
    });

    it('a key of another account is another key', async () => {
      const admin = await signIn(svc.baseUrl, 'bruno@lookout.dev', 'lookout-demo');
      const headers = { 'Idempotency-Key': 'shared-key-1' };
      const a = await createProject(svc, { token, json: { name: 'Mine' }, headers });
      const b = await createProject(svc, {
        token: admin.accessToken,
        json: { name: 'Mine' },
        headers,
      });
      expect(a.status).toBe(200);
      expect(b.status).toBe(200);
      expect((b.body as Project).id).not.toBe((a.body as Project).id);
    });

    it.each([
      ['129 characters', 'k'.repeat(129)],
      ['empty', ''],
      ['a space', 'two words'],
    ])('a key of %s is 422 validation_failed and creates nothing', async (_name, key) => {
      const before = ((await list(svc, token)).body as Project[]).length;
      const res = await createProject(svc, {
        token,
        json: { name: 'Bad Key' },
        headers: { 'Idempotency-Key': key },
      });
      expectError(res, 422, 'validation_failed', { code: 'fix_request', target: 'request' });
      expect(((await list(svc, token)).body as Project[]).length).toBe(before);
    });

    it('a key of 128 visible characters is accepted', async () => {
      const res = await createProject(svc, {
        token,
        json: { name: 'Long Key' },
        headers: { 'Idempotency-Key': '~'.repeat(128) },
      });
      expect(res.status).toBe(200);
    });
  });
});

describe('POST /api/projects/{project_id}/ingest-keys', () => {
  let svc: Svc;
  let token = '';
  let memberToken = '';
  let projectId = '';
  beforeAll(async () => {
    svc = await startService({ demo: true });
    token = (await signIn(svc.baseUrl, svc.creds.email, svc.creds.password)).accessToken;
    memberToken = (await signIn(svc.baseUrl, 'chen@lookout.dev', 'lookout-demo')).accessToken;
    projectId = svc.creds.projects[0]?.id ?? '';
  });
  afterAll(() => svc.close());

  it('creates a key (200) whose value starts lk_ik_ and is stored only hashed', async () => {
    const res = await createKey(svc, projectId, { token, json: { name: 'CI key' } });
    expect(res.status, res.text).toBe(200);
    const k = res.body as IngestKey;
    expect(k).toMatchObject({ project_id: projectId, name: 'CI key', expires_at: null });
    expect(k.id).toMatch(uuid);
    expect(k.key).toMatch(/^lk_ik_[A-Za-z0-9_-]{40,}$/);
    expect(k.key.startsWith(k.key_prefix)).toBe(true);
    expect(k.key_prefix.length).toBeLessThan(k.key.length / 2);
    expect(k.created_at).toMatch(rfc3339);

    const values = await tableValues(svc, 'ingest_keys');
    expect(values).toContain(k.id);
    for (const v of values) expect(v).not.toContain(k.key);
    // The demo keys are stored the same way.
    for (const demo of svc.creds.projects)
      for (const v of values) expect(v).not.toContain(demo.ingest_key);
  });

  it('the key is not an account credential', async () => {
    const k = (await createKey(svc, projectId, { token, json: {} })).body as IngestKey;
    expectError(await list(svc, k.key), 401, 'unauthorized');
  });

  it('an idempotent replay returns the same key; another body is 409', async () => {
    const headers = { 'Idempotency-Key': 'ingest-key-replay' };
    const first = await createKey(svc, projectId, { token, json: { name: 'Replayed' }, headers });
    const second = await createKey(svc, projectId, { token, json: { name: 'Replayed' }, headers });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect((second.body as IngestKey).key).toBe((first.body as IngestKey).key);
    expect(second.body).toEqual(first.body);
    const rows = (await tableValues(svc, 'ingest_keys')).filter((v) => v === 'Replayed');
    expect(rows).toHaveLength(1);
    const conflict = await createKey(svc, projectId, { token, json: { name: 'Other' }, headers });
    expectError(conflict, 409, 'idempotency_conflict');
  });

  it('the same Idempotency-Key on another project is another request', async () => {
    const other = svc.creds.projects[1]?.id ?? '';
    const headers = { 'Idempotency-Key': 'per-project-key' };
    const a = await createKey(svc, projectId, { token, json: {}, headers });
    const b = await createKey(svc, other, { token, json: {}, headers });
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect((b.body as IngestKey).project_id).toBe(other);
    expect((b.body as IngestKey).key).not.toBe((a.body as IngestKey).key);
  });

  it('an expiry in the past is 422 validation_failed', async () => {
    const res = await createKey(svc, projectId, {
      token,
      json: { expires_at: '2000-01-01T00:00:00Z' },
    });
    expectError(res, 422, 'validation_failed');
  });

  it('an unknown project uuid is 404 not_found', async () => {
    expectError(await createKey(svc, unknownProject, { token, json: {} }), 404, 'not_found');
  });

  it('a path value that is not a UUID is 400 invalid_path', async () => {
    const res = await createKey(svc, 'storefront-web', { token, json: {} });
    expectError(res, 400, 'invalid_path', { code: 'fix_request', target: 'request' });
  });

  it("role 'member' is 403 forbidden and creates nothing", async () => {
    const before = (await tableValues(svc, 'ingest_keys')).length;
    expectError(
      await createKey(svc, projectId, { token: memberToken, json: {} }),
      403,
      'forbidden',
    );
    expect((await tableValues(svc, 'ingest_keys')).length).toBe(before);
  });

  it('without a bearer is 401 unauthorized', async () => {
    expectError(await createKey(svc, projectId, { json: {} }), 401, 'unauthorized');
  });
});

describe('Idempotency-Key window', () => {
  let svc: Svc;
  beforeAll(async () => {
    svc = await startService({ demo: true });
  });
  afterAll(() => svc.close());

  it('a replay is remembered for a day, then forgotten with the secret it held', async () => {
    const headers = { 'Idempotency-Key': 'day-old-key' };
    const projectId = svc.creds.projects[0]?.id ?? '';
    const token = svc.creds.account_token;
    const first = (await createKey(svc, projectId, { token, json: { name: 'Day' }, headers }))
      .body as IngestKey;
    expect((await tableValues(svc, 'idempotency_keys')).some((v) => v.includes(first.key))).toBe(
      true,
    );
    svc.clock.advance(24 * 60 * 60 * 1000 + 1);
    const later = await createKey(svc, projectId, {
      token,
      json: { name: 'Other work' },
      headers,
    });
    expect(later.status).toBe(200);
    expect((later.body as IngestKey).key).not.toBe(first.key);
    expect((await tableValues(svc, 'idempotency_keys')).some((v) => v.includes(first.key))).toBe(
      false,
    );
  });
});
