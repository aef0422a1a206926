import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError } from '../../test-support/api-client';
import {
  addPerson,
  addTeam,
  ingestIssues,
  issueIdOf,
  type Person,
} from '../../test-support/issues';
import { startService, type RunningService } from '../../test-support/start-service';
import { at, createTenant, issueItem, type Tenant } from '../../test-support/telemetry';

type Svc = RunningService<false>;
type Entry = {
  id: string;
  type: string;
  value: string | null;
  actor_id: string | null;
  actor: { user_id: string; name: string | null; email: string } | null;
  assignee_id: string | null;
  assignee: { user_id: string; name: string | null; email: string } | null;
  team: { team_id: string; slug: string; name: string } | null;
  at: string;
};
type Page = { activity: Entry[]; next_cursor: { time: string; id: string } | null };

describe('GET /api/telemetry/issues/{issue_id}/activity', () => {
  let svc: Svc;
  let tenant: Tenant;
  let owner: Person;
  let admin: Person;
  let member: Person;
  let team = '';
  let issueId = '';
  let busyId = '';
  let strangerIssue = '';
  const first = issueItem({ fingerprint: 'fp-act', occurred_at: at(0), release: 'shop@0.9.0' });
  const second = issueItem({ fingerprint: 'fp-act', occurred_at: at(1000), release: 'shop@1.0.0' });

  const activity = (id: string, query = '', token = owner.token) =>
    call(svc.baseUrl, 'GET', `/api/telemetry/issues/${id}/activity${query ? `?${query}` : ''}`, {
      token,
    });
  const patch = (id: string, json: unknown, token = owner.token) =>
    call(svc.baseUrl, 'PATCH', `/api/telemetry/issues/${id}`, { token, json });
  const tick = () => svc.clock.advance(1000);

  beforeAll(async () => {
    svc = await startService();
    tenant = await createTenant(svc);
    owner = await addPerson(svc, tenant.organizationId, 'owner', 'Olga Owner');
    admin = await addPerson(svc, tenant.organizationId, 'admin', 'Ari Admin');
    member = await addPerson(svc, tenant.organizationId, 'member', null);
    team = await addTeam(svc, tenant.organizationId, 'platform', [member.accountId]);
    // The later occurrence arrives first: first_seen still comes from the earliest one.
    await ingestIssues(svc, tenant.ingestKey, [second]);
    await ingestIssues(svc, tenant.ingestKey, [first]);
    issueId = await issueIdOf(svc, owner.token, tenant.projectId, 'fp-act');
    await ingestIssues(svc, tenant.ingestKey, [issueItem({ fingerprint: 'fp-busy' })]);
    busyId = await issueIdOf(svc, owner.token, tenant.projectId, 'fp-busy');
    const stranger = await createTenant(svc);
    await ingestIssues(svc, stranger.ingestKey, [issueItem({ fingerprint: 'fp-s' })]);
    const strangerOwner = await addPerson(svc, stranger.organizationId, 'owner');
    strangerIssue = await issueIdOf(svc, strangerOwner.token, stranger.projectId, 'fp-s');
  });
  afterAll(async () => {
    await svc.close();
  });

  it('starts with first_seen, from the first occurrence', async () => {
    const res = await activity(issueId);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      activity: [
        {
          id: first.id,
          type: 'first_seen',
          value: 'shop@0.9.0',
          actor_id: null,
          actor: null,
          assignee_id: null,
          assignee: null,
          team: null,
          at: at(0),
        },
      ],
      next_cursor: null,
    });
  });

  it('records every real change with its actor, newest first, and nothing for unchanged values', async () => {
    tick();
    expect((await patch(issueId, { status: 'resolved' })).status).toBe(200);
    tick();
    expect(
      (await patch(issueId, { priority: 'low', status: 'resolved' }, admin.token)).status,
    ).toBe(200);
    tick();
    expect((await patch(issueId, { assignee: member.accountId })).status).toBe(200);
    tick();
    expect((await patch(issueId, { assignee: `team:${team}` })).status).toBe(200);
    tick();
    expect((await patch(issueId, { assignee: 'none' })).status).toBe(200);
    tick();
    // Nothing changes: no entry.
    expect((await patch(issueId, { assignee: 'none', priority: 'low' })).status).toBe(200);
    const rule = await call(svc.baseUrl, 'PUT', `/api/telemetry/issues/${issueId}/triage-rule`, {
      token: owner.token,
      json: { severity: 'critical' },
    });
    expect(rule.status, rule.text).toBe(200);
    tick();
    const removed = await call(svc.baseUrl, 'PUT', `/api/telemetry/issues/${issueId}/triage-rule`, {
      token: owner.token,
      json: { severity: 'source' },
    });
    expect(removed.status, removed.text).toBe(200);

    const res = await activity(issueId, 'response_version=2');
    expect(res.status, res.text).toBe(200);
    const entries = (res.body as Page).activity;
    const ownerRef = { user_id: owner.accountId, name: 'Olga Owner', email: owner.email };
    const memberRef = { user_id: member.accountId, name: null, email: member.email };
    const teamRef = { team_id: team, slug: 'platform', name: 'Platform' };
    expect(
      entries.map((e) => [e.type, e.value, e.actor_id, e.assignee_id, e.team?.team_id ?? null]),
    ).toEqual([
      ['severity_rule', 'source', owner.accountId, null, null],
      ['severity_rule', 'critical', owner.accountId, null, null],
      ['unassigned', 'team', owner.accountId, null, team],
      ['assigned', 'team', owner.accountId, null, team],
      ['assigned', 'user', owner.accountId, member.accountId, null],
      ['priority', 'low', admin.accountId, null, null],
      ['status', 'resolved', owner.accountId, null, null],
      ['first_seen', 'shop@0.9.0', null, null, null],
    ]);
    expect(entries[4]).toMatchObject({ actor: ownerRef, assignee: memberRef, team: null });
    expect(entries[3]).toMatchObject({ assignee: null, team: teamRef });
    expect(entries[5]?.actor).toEqual({
      user_id: admin.accountId,
      name: 'Ari Admin',
      email: admin.email,
    });
    expect(entries[6]?.at).toBe(new Date(svc.clock.now() - 6000).toISOString());
  });

  it('a regression is a status entry without actor', async () => {
    tick();
    await ingestIssues(svc, tenant.ingestKey, [
      issueItem({ fingerprint: 'fp-act', occurred_at: at(9000) }),
    ]);
    const [top] = ((await activity(issueId)).body as Page).activity;
    expect(top).toMatchObject({
      type: 'status',
      value: 'unresolved',
      actor_id: null,
      actor: null,
      at: new Date(svc.clock.now()).toISOString(),
    });
    // A late, older occurrence does not reopen a resolved issue, and records nothing.
    expect((await patch(issueId, { status: 'resolved' })).status).toBe(200);
    const count = ((await activity(issueId)).body as Page).activity.length;
    await ingestIssues(svc, tenant.ingestKey, [
      issueItem({ fingerprint: 'fp-act', occurred_at: at(500) }),
    ]);
    expect(((await activity(issueId)).body as Page).activity.length).toBe(count);
  });

  it('pages with cursor_time and cursor_id; limit is 1 to 200, default 50', async () => {
    // 60 changes: 61 entries with first_seen.
    for (let n = 0; n < 60; n++) {
      tick();
      const res = await patch(busyId, { status: n % 2 === 0 ? 'resolved' : 'unresolved' });
      expect(res.status).toBe(200);
    }
    const all = await activity(busyId, 'limit=200');
    expect((all.body as Page).activity).toHaveLength(61);
    expect((all.body as Page).next_cursor).toBeNull();
    const byDefault = (await activity(busyId)).body as Page;
    expect(byDefault.activity).toHaveLength(50);
    expect(byDefault.next_cursor).not.toBeNull();

    const seen: string[] = [];
    let query = 'limit=25';
    for (let pages = 0; pages < 5; pages++) {
      const page = (await activity(busyId, query)).body as Page;
      seen.push(...page.activity.map((e) => e.id));
      if (page.next_cursor === null) break;
      const last = page.activity[page.activity.length - 1];
      expect(page.next_cursor).toEqual({ time: last?.at, id: last?.id });
      query = `limit=25&cursor_time=${encodeURIComponent(page.next_cursor.time)}&cursor_id=${page.next_cursor.id}`;
    }
    expect(seen).toEqual((all.body as Page).activity.map((e) => e.id));
    expect(seen[seen.length - 1]).toBeDefined();

    for (const q of ['limit=0', 'limit=201', 'limit=-5', 'limit=ten'])
      expectError(await activity(busyId, q), 422, 'validation_failed');
  });

  it('accepts response_version 2 only, and only its own keys', async () => {
    expect((await activity(issueId, 'response_version=2')).status).toBe(200);
    for (const q of [
      'response_version=1',
      'response_version=3',
      'pagination=cursor',
      `cursor_time=${encodeURIComponent(at(0))}`,
      `cursor_id=${randomUUID()}`,
      `cursor_time=yesterday&cursor_id=${randomUUID()}`,
      `cursor_time=${encodeURIComponent(at(0))}&cursor_id=nope`,
      'since=1h',
    ])
      expectError(await activity(issueId, q), 422, 'validation_failed');
  });

  it('any reader may read it; unknown and unreadable issues are 404', async () => {
    expect((await activity(issueId, '', member.token)).status).toBe(200);
    for (const id of [randomUUID(), strangerIssue]) {
      const res = await activity(id);
      expectError(res, 404, 'not_found');
      expect((res.body as { error: string }).error).toBe('issue not found');
    }
    expectError(await activity('nope'), 400, 'invalid_path');
    expectError(
      await call(svc.baseUrl, 'GET', `/api/telemetry/issues/${issueId}/activity`),
      401,
      'unauthorized',
    );
  });
});
