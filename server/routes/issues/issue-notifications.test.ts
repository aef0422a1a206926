import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError } from '../../test-support/api-client';
import {
  addPerson,
  addProject,
  addTeam,
  ingestIssues,
  issueIdOf,
  removeMembership,
  removeTeamMembership,
  type Person,
} from '../../test-support/issues';
import { startService, type RunningService } from '../../test-support/start-service';
import { createTenant, issueItem, type Tenant } from '../../test-support/telemetry';

type Svc = RunningService<false>;
type Notification = {
  id: string;
  issue_id: string;
  project_id: string;
  issue_title: string;
  actor_id: string;
  assignee_id: string | null;
  team: { team_id: string } | null;
  at: string;
  read: boolean;
};
type Inbox = {
  notifications: Notification[];
  unread: number;
  read_at: string | null;
  next_cursor: { time: string; id: string } | null;
};

describe('issue notifications', () => {
  let svc: Svc;
  let tenant: Tenant;
  let owner: Person;
  let admin: Person;
  let member: Person;
  let team = '';
  const issue: Record<string, string> = {};
  let otherProjectIssue = '';

  const inbox = async (person: Person, query = '') => {
    const res = await call(
      svc.baseUrl,
      'GET',
      `/api/telemetry/issues/notifications${query ? `?${query}` : ''}`,
      { token: person.token },
    );
    expect(res.status, res.text).toBe(200);
    return res.body as Inbox;
  };
  const read = (person: Person, json: unknown) =>
    call(svc.baseUrl, 'POST', '/api/telemetry/issues/notifications/read', {
      token: person.token,
      json,
    });
  const assign = async (id: string, assignee: string, by: Person) => {
    svc.clock.advance(1000);
    const res = await call(svc.baseUrl, 'PATCH', `/api/telemetry/issues/${id}`, {
      token: by.token,
      json: { assignee },
    });
    expect(res.status, res.text).toBe(200);
  };
  const iso = (ms: number) => new Date(ms).toISOString();

  beforeAll(async () => {
    svc = await startService();
    tenant = await createTenant(svc);
    owner = await addPerson(svc, tenant.organizationId, 'owner', 'Olga Owner');
    admin = await addPerson(svc, tenant.organizationId, 'admin', 'Ari Admin');
    member = await addPerson(svc, tenant.organizationId, 'member', 'Mo Member');
    team = await addTeam(svc, tenant.organizationId, 'checkout', [
      member.accountId,
      admin.accountId,
    ]);
    await ingestIssues(
      svc,
      tenant.ingestKey,
      ['n1', 'n2', 'n3', 'n4'].map((fp) => issueItem({ fingerprint: fp, message: `boom ${fp}` })),
    );
    for (const fp of ['n1', 'n2', 'n3', 'n4'])
      issue[fp] = await issueIdOf(svc, owner.token, tenant.projectId, fp);
    const other = await addProject(svc, tenant.organizationId);
    await ingestIssues(svc, other.ingestKey, [issueItem({ fingerprint: 'n-other' })]);
    otherProjectIssue = await issueIdOf(svc, owner.token, other.projectId, 'n-other');
  });
  afterAll(async () => {
    await svc.close();
  });

  it('is empty before anything is assigned', async () => {
    expect(await inbox(member)).toEqual({
      notifications: [],
      unread: 0,
      read_at: null,
      next_cursor: null,
    });
  });

  it('lists assignments to you or your teams by other accounts, newest first', async () => {
    await assign(issue.n1 ?? '', member.accountId, admin);
    await assign(issue.n2 ?? '', `team:${team}`, owner);
    // Your own assignment is not a notification, nor one to somebody else.
    await assign(issue.n3 ?? '', 'me', admin);
    await assign(issue.n4 ?? '', owner.accountId, admin);
    const box = await inbox(member);
    expect(box.unread).toBe(2);
    expect(box.read_at).toBeNull();
    expect(box.next_cursor).toBeNull();
    expect(
      box.notifications.map((n) => [
        n.issue_id,
        n.actor_id,
        n.assignee_id,
        n.team?.team_id ?? null,
      ]),
    ).toEqual([
      [issue.n2, owner.accountId, null, team],
      [issue.n1, admin.accountId, member.accountId, null],
    ]);
    expect(box.notifications[1]).toMatchObject({
      project_id: tenant.projectId,
      issue_title: 'PaymentError: card declined',
      read: false,
      actor: { user_id: admin.accountId, name: 'Ari Admin', email: admin.email },
      assignee: { user_id: member.accountId, name: 'Mo Member', email: member.email },
    });
    // The admin is in the team too: the owner's assignment of n2 notifies them as well.
    expect((await inbox(admin)).notifications.map((n) => n.issue_id)).toEqual([issue.n2]);
    expect((await inbox(owner)).notifications.map((n) => n.issue_id)).toEqual([issue.n4]);
  });

  it('pages with cursor_time and cursor_id', async () => {
    const first = await inbox(member, 'limit=1');
    expect(first.notifications.map((n) => n.issue_id)).toEqual([issue.n2]);
    expect(first.unread).toBe(2);
    const cursor = first.next_cursor;
    expect(cursor).toEqual({ time: first.notifications[0]?.at, id: first.notifications[0]?.id });
    const second = await inbox(
      member,
      `limit=1&cursor_time=${encodeURIComponent(cursor?.time ?? '')}&cursor_id=${cursor?.id ?? ''}`,
    );
    expect(second.notifications.map((n) => n.issue_id)).toEqual([issue.n1]);
    expect(second.next_cursor).toBeNull();
    for (const q of [
      'limit=0',
      'pagination=cursor',
      `cursor_id=${randomUUID()}`,
      'cursor_time=now&cursor_id=x',
      'project_id=x',
    ]) {
      const res = await call(svc.baseUrl, 'GET', `/api/telemetry/issues/notifications?${q}`, {
        token: member.token,
      });
      expectError(res, 422, 'validation_failed');
    }
  });

  it('the read mark moves forward only, and a later assignment is unread again', async () => {
    const box = await inbox(member);
    const newest = Date.parse(box.notifications[0]?.at ?? '');
    const oldest = Date.parse(box.notifications[1]?.at ?? '');

    // Up to the older one only.
    const partial = await read(member, { read_at: iso(oldest) });
    expect(partial.status, partial.text).toBe(200);
    expect(partial.body).toEqual({ read_at: iso(oldest), unread: 1 });
    const half = await inbox(member);
    expect(half.notifications.map((n) => n.read)).toEqual([false, true]);
    expect(half.read_at).toBe(iso(oldest));

    // `{}` is now.
    svc.clock.advance(1000);
    const now = svc.clock.now();
    const all = await read(member, {});
    expect(all.body).toEqual({ read_at: iso(now), unread: 0 });
    expect((await inbox(member)).notifications.map((n) => n.read)).toEqual([true, true]);

    // Backward leaves the mark where it is and returns it.
    const back = await read(member, { read_at: iso(newest - 10_000) });
    expect(back.status, back.text).toBe(200);
    expect(back.body).toEqual({ read_at: iso(now), unread: 0 });
    expect((await inbox(member)).read_at).toBe(iso(now));

    // A time in the future is taken as now.
    const future = await read(member, { read_at: '2999-01-01T00:00:00Z' });
    expect(future.body).toEqual({ read_at: iso(svc.clock.now()), unread: 0 });

    await assign(issue.n3 ?? '', member.accountId, owner);
    const later = await inbox(member);
    expect(later.unread).toBe(1);
    expect(later.notifications[0]).toMatchObject({ issue_id: issue.n3, read: false });
  });

  it('refuses a bad read mark', async () => {
    for (const json of [
      { read_at: 'yesterday' },
      { read_at: '2025-02-30T00:00:00Z' },
      { read_at: 5 },
      { read_at: null },
      { at: '2025-03-03T00:00:00Z' },
    ])
      expectError(await read(member, json), 422, 'validation_failed');
    expectError(
      await call(svc.baseUrl, 'POST', '/api/telemetry/issues/notifications/read', {
        token: member.token,
      }),
      415,
      'invalid_json',
    );
    expectError(
      await call(svc.baseUrl, 'POST', '/api/telemetry/issues/notifications/read', {
        json: {},
      }),
      401,
      'unauthorized',
    );
  });

  it('shows only issues you can still read, and only teams you are in now', async () => {
    await assign(otherProjectIssue, member.accountId, owner);
    expect((await inbox(member)).notifications.map((n) => n.issue_id)).toContain(otherProjectIssue);
    await removeMembership(svc, tenant.organizationId, member.accountId);
    const gone = await inbox(member);
    expect(gone.notifications).toEqual([]);
    expect(gone.unread).toBe(0);
    await svc.deps.store.accounts.addMember({
      organizationId: tenant.organizationId,
      accountId: member.accountId,
      role: 'member',
    });
    expect((await inbox(member)).notifications.length).toBe(4);

    // Out of the team, its assignments are not yours any more.
    await removeTeamMembership(svc, team, member.accountId);
    const notTeam = (await inbox(member)).notifications.map((n) => n.issue_id);
    expect(notTeam).toHaveLength(3);
    expect(notTeam).not.toContain(issue.n2);
    // Another member, in no team and never assigned, has nothing.
    const bystander = await addPerson(svc, tenant.organizationId, 'member');
    expect((await inbox(bystander)).notifications).toEqual([]);
  });
});

describe('GET /api/telemetry/issues/assignees', () => {
  let svc: Svc;
  let tenant: Tenant;
  let owner: Person;
  let member: Person;
  let outsider: Person;

  const get = (query: string, token = owner.token) =>
    call(svc.baseUrl, 'GET', `/api/telemetry/issues/assignees?${query}`, { token });

  beforeAll(async () => {
    svc = await startService();
    tenant = await createTenant(svc);
    owner = await addPerson(svc, tenant.organizationId, 'owner', 'Zoe Owner');
    member = await addPerson(svc, tenant.organizationId, 'member', 'amy Member');
    outsider = await addPerson(svc, null, null, 'Out Sider');
    await addTeam(svc, tenant.organizationId, 'platform', [member.accountId]);
    await addTeam(svc, tenant.organizationId, 'checkout', []);
    const stranger = await createTenant(svc);
    await addTeam(svc, stranger.organizationId, 'elsewhere', []);
  });
  afterAll(async () => {
    await svc.close();
  });

  it('version 1 lists every account that can read the project, by name, nameless last', async () => {
    const res = await get(`project_id=${tenant.projectId}`);
    expect(res.status, res.text).toBe(200);
    const tenantOwner = await svc.deps.store.accounts.byId(tenant.accountId);
    expect(res.body).toEqual({
      project_id: tenant.projectId,
      assignees: [
        { user_id: member.accountId, name: 'amy Member', email: member.email },
        { user_id: owner.accountId, name: 'Zoe Owner', email: owner.email },
        { user_id: tenant.accountId, name: null, email: tenantOwner?.email },
      ],
    });
  });

  it('version 2 adds every team of the project organization', async () => {
    const res = await get(`project_id=${tenant.projectId}&response_version=2`, member.token);
    expect(res.status, res.text).toBe(200);
    const body = res.body as { teams: { slug: string; name: string; team_id: string }[] };
    expect(body.teams.map((t) => [t.slug, t.name])).toEqual([
      ['checkout', 'Checkout'],
      ['platform', 'Platform'],
    ]);
  });

  it('needs project_id and a readable project; other versions are 422', async () => {
    for (const q of [
      '',
      'project_id=nope',
      `project_id=${tenant.projectId}&response_version=3`,
      `project_ids=${tenant.projectId}`,
    ])
      expectError(await get(q), 422, 'validation_failed');
    expectError(await get(`project_id=${randomUUID()}`), 404, 'not_found');
    expectError(await get(`project_id=${tenant.projectId}`, outsider.token), 404, 'not_found');
    expectError(
      await call(
        svc.baseUrl,
        'GET',
        `/api/telemetry/issues/assignees?project_id=${tenant.projectId}`,
      ),
      401,
      'unauthorized',
    );
  });
});
