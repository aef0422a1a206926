import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, type CallOptions } from '../../test-support/api-client';
import { addPerson, addTeam, type Person } from '../../test-support/issues';
import { startService, type RunningService } from '../../test-support/start-service';
import { createTenant, type Tenant } from '../../test-support/telemetry';

type Rule = {
  id: string;
  project_id: string;
  name: string;
  kind: string;
  condition: Record<string, unknown>;
  notify: { inbox: unknown; webhook_ids: string[] };
  resolve_threshold: number | null;
  enabled: boolean;
  muted_until: string | null;
  state: string;
  last_evaluated_window_end: string | null;
};

describe('alert rules', () => {
  let svc: RunningService<false>;
  let tenant: Tenant;
  let owner: Person;
  let member: Person;
  let outsider: Person;
  let team = '';
  const send = (method: string, path: string, person: Person, opts: CallOptions = {}) =>
    call(svc.baseUrl, method, path, { token: person.token, ...opts });
  const logRule = (o: Record<string, unknown> = {}) => ({
    project_id: tenant.projectId,
    name: 'Checkout errors',
    kind: 'log',
    condition: {
      query: { severity: 'error', service_name: 'checkout', search: 'timeout' },
      op: 'above',
      threshold: 10,
      window_minutes: 5,
    },
    notify: { inbox: { user_id: owner.accountId }, webhook_ids: [] },
    ...o,
  });

  beforeAll(async () => {
    svc = await startService();
    tenant = await createTenant(svc);
    owner = await addPerson(svc, tenant.organizationId, 'admin', 'Ada');
    member = await addPerson(svc, tenant.organizationId, 'member', 'Max');
    outsider = await addPerson(svc, null, null);
    team = await addTeam(svc, tenant.organizationId, 'payments', [
      owner.accountId,
      member.accountId,
    ]);
  }, 60_000);
  afterAll(async () => {
    await svc.close();
  });

  it('creates a rule for an admin and members read it', async () => {
    const res = await send('POST', '/api/alerts/rules', owner, { json: logRule() });
    expect(res.status, res.text).toBe(200);
    const rule = res.body as Rule;
    expect(rule).toMatchObject({
      project_id: tenant.projectId,
      name: 'Checkout errors',
      kind: 'log',
      enabled: true,
      muted_until: null,
      state: 'ok',
      resolve_threshold: null,
      last_evaluated_window_end: null,
      notify: { inbox: { user_id: owner.accountId }, webhook_ids: [] },
    });
    const list = await send('GET', `/api/alerts/rules?project_id=${tenant.projectId}`, member);
    expect(list.status, list.text).toBe(200);
    expect((list.body as { rules: Rule[] }).rules.map((r) => r.id)).toContain(rule.id);
    const one = await send('GET', `/api/alerts/rules/${rule.id}`, member);
    expect(one.body).toEqual(rule);
  });

  it('accepts each kind of condition', async () => {
    const conditions = {
      issue: {
        event: 'event_count',
        threshold: 5,
        window_minutes: 10,
        filters: { environment: 'production' },
      },
      metric: {
        query: { name: 'queue.depth', aggregation: 'max' },
        op: 'above',
        threshold: 100,
        window_minutes: 5,
      },
      trace: {
        service: 'checkout',
        measure: 'p95',
        op: 'above',
        threshold: 800,
        window_minutes: 15,
      },
    };
    for (const [kind, condition] of Object.entries(conditions)) {
      const res = await send('POST', '/api/alerts/rules', owner, {
        json: logRule({ kind, condition, notify: { inbox: { team_id: team }, webhook_ids: [] } }),
      });
      expect(res.status, res.text).toBe(200);
      expect((res.body as Rule).kind).toBe(kind);
    }
    const issues = await send(
      'GET',
      `/api/alerts/rules?project_id=${tenant.projectId}&kind=issue`,
      member,
    );
    expect((issues.body as { rules: Rule[] }).rules.every((r) => r.kind === 'issue')).toBe(true);
  });

  it('refuses members with 403 role_forbidden and outsiders with 404', async () => {
    const res = await send('POST', '/api/alerts/rules', member, { json: logRule() });
    expectError(res, 403, 'role_forbidden', { code: 'request_role', target: 'organization' });
    expectError(
      await send('POST', '/api/alerts/rules', outsider, { json: logRule() }),
      404,
      'not_found',
    );
    expectError(
      await send('GET', `/api/alerts/rules?project_id=${tenant.projectId}`, outsider),
      404,
      'not_found',
    );
  });

  it('names the invalid field in 422 validation_failed', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ condition: { query: {}, op: 'above', threshold: 10 } }, /condition\.window_minutes/],
      [
        {
          condition: { query: { severity: 'loud' }, op: 'above', threshold: 1, window_minutes: 5 },
        },
        /condition\.query\.severity/,
      ],
      [{ kind: 'issue', condition: { event: 'user_count' } }, /condition\.threshold/],
      [
        {
          kind: 'trace',
          condition: { service: 'x', measure: 'p42', op: 'above', threshold: 1, window_minutes: 5 },
        },
        /condition\.measure/,
      ],
      [
        { notify: { inbox: { user_id: outsider.accountId }, webhook_ids: [] } },
        /notify\.inbox\.user_id/,
      ],
      [{ notify: { inbox: null, webhook_ids: [crypto.randomUUID()] } }, /notify\.webhook_ids\[0\]/],
      [{ kind: 'sms' }, /kind/],
    ];
    for (const [change, field] of cases) {
      const res = await send('POST', '/api/alerts/rules', owner, { json: logRule(change) });
      expectError(res, 422, 'validation_failed');
      expect((res.body as { error: string }).error).toMatch(field);
    }
  });

  it('replays a create with the same Idempotency-Key and refuses another body', async () => {
    const headers = { 'Idempotency-Key': 'rule-create-1' };
    const first = await send('POST', '/api/alerts/rules', owner, {
      json: logRule({ name: 'Once' }),
      headers,
    });
    const again = await send('POST', '/api/alerts/rules', owner, {
      json: logRule({ name: 'Once' }),
      headers,
    });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const other = await send('POST', '/api/alerts/rules', owner, {
      json: logRule({ name: 'Twice' }),
      headers,
    });
    expectError(other, 409, 'idempotency_conflict');
  });

  it('changes, mutes and deletes a rule for admins only', async () => {
    const rule = (await send('POST', '/api/alerts/rules', owner, { json: logRule() })).body as Rule;
    const path = `/api/alerts/rules/${rule.id}`;
    expectError(
      await send('PATCH', path, member, { json: { enabled: false } }),
      403,
      'role_forbidden',
    );
    const patched = await send('PATCH', path, owner, {
      json: {
        name: 'Renamed',
        enabled: false,
        resolve_threshold: 4,
        muted_until: '2030-01-01T00:00:00Z',
        condition: {
          query: { severity: 'critical' },
          op: 'below',
          threshold: 2,
          window_minutes: 10,
        },
      },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({
      name: 'Renamed',
      enabled: false,
      resolve_threshold: 4,
      muted_until: '2030-01-01T00:00:00.000Z',
      condition: { op: 'below', threshold: 2 },
    });
    const unmuted = await send('PATCH', path, owner, { json: { muted_until: null } });
    expect((unmuted.body as Rule).muted_until).toBeNull();
    expectError(
      await send('PATCH', path, owner, { json: { condition: { event: 'new_issue' } } }),
      422,
      'validation_failed',
    );
    expectError(await send('DELETE', path, member), 403, 'role_forbidden');
    expect((await send('DELETE', path, owner)).status).toBe(200);
    expectError(await send('GET', path, owner), 404, 'not_found');
  });

  it('refuses unknown and repeated query keys and bad cursors', async () => {
    const base = `/api/alerts/rules?project_id=${tenant.projectId}`;
    expectError(await send('GET', `${base}&colour=red`, member), 422, 'validation_failed');
    expectError(await send('GET', `${base}&kind=log&kind=issue`, member), 422, 'validation_failed');
    expectError(await send('GET', `${base}&cursor=not-a-cursor`, member), 422, 'validation_failed');
    expectError(await send('GET', '/api/alerts/rules', member), 422, 'validation_failed');
    expectError(await send('GET', '/api/alerts/rules/not-a-uuid', member), 400, 'invalid_path');
  });

  it('pages rules with next_cursor', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const q: string = `project_id=${tenant.projectId}&limit=2${cursor ? `&cursor=${cursor}` : ''}`;
      const res = await send('GET', `/api/alerts/rules?${q}`, member);
      const body = res.body as { rules: Rule[]; next_cursor: string | null };
      expect(body.rules.length).toBeLessThanOrEqual(2);
      seen.push(...body.rules.map((r) => r.id));
      cursor = body.next_cursor;
    } while (cursor !== null);
    const all = await send(
      'GET',
      `/api/alerts/rules?project_id=${tenant.projectId}&limit=200`,
      member,
    );
    expect(seen).toEqual((all.body as { rules: Rule[] }).rules.map((r) => r.id));
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('answers 401 without a credential', async () => {
    const res = await call(svc.baseUrl, 'GET', `/api/alerts/rules?project_id=${tenant.projectId}`);
    expectError(res, 401, 'unauthorized');
  });
});
