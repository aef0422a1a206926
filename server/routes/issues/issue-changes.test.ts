import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword, newId } from '../../domain/secrets';
import { call, expectError, type ApiResponse } from '../../test-support/api-client';
import {
  addPerson,
  addProject,
  addTeam,
  idsOf,
  ingestIssues,
  issueIdOf,
  removeMembership,
  type IssueJson,
  type Person,
} from '../../test-support/issues';
import { newTicket, openFeed } from '../../test-support/live-feed';
import { startService, type RunningService } from '../../test-support/start-service';
import { at, createTenant, issueItem, type Tenant } from '../../test-support/telemetry';

type Svc = RunningService<false>;
type Occurrence = { id: string };
type BulkResult = {
  project_id: string;
  results: { issue_id: string; outcome: string; issue: IssueJson | null }[];
};

const errorText = (res: ApiResponse) => (res.body as { error: string }).error;

describe('issue changes: PATCH, bulk and the severity rule', () => {
  let svc: Svc;
  let tenant: Tenant;
  let owner: Person;
  let admin: Person;
  let member: Person;
  let outsider: Person;
  let checkoutTeam = '';
  let foreignTeam = '';
  let other = { projectId: '', ingestKey: '' };
  let otherIssue = '';
  let strangerIssue = '';
  // Issues by fingerprint; `fp-*` items all occur in the tenant's project.
  const issue: Record<string, string> = {};
  const FPS = ['fp-1', 'fp-2', 'fp-3', 'fp-4', 'fp-5', 'fp-6', 'fp-7', 'fp-8'];

  const path = (id: string, query = '') => `/api/telemetry/issues/${id}${query ? `?${query}` : ''}`;
  const patch = (id: string, json: unknown, token = owner.token, query = 'response_version=4') =>
    call(svc.baseUrl, 'PATCH', path(id, query), { token, json });
  const get = (id: string, version = 4, token = owner.token) =>
    call(svc.baseUrl, 'GET', path(id, `response_version=${version}`), { token });
  const bulk = (json: unknown, token = owner.token) =>
    call(svc.baseUrl, 'POST', '/api/telemetry/issues/bulk', { token, json });
  const rule = (id: string, json: unknown, token = owner.token, query = 'response_version=2') =>
    call(svc.baseUrl, 'PUT', `/api/telemetry/issues/${id}/triage-rule?${query}`, { token, json });
  const list = (query: string, token = owner.token) =>
    call(
      svc.baseUrl,
      'GET',
      `/api/telemetry/issues?project_id=${tenant.projectId}&response_version=4&${query}`,
      { token },
    );
  const activityCount = async (id: string) => {
    const res = await call(svc.baseUrl, 'GET', `/api/telemetry/issues/${id}/activity`, {
      token: owner.token,
    });
    expect(res.status, res.text).toBe(200);
    return (res.body as { activity: unknown[] }).activity.length;
  };

  beforeAll(async () => {
    svc = await startService();
    tenant = await createTenant(svc);
    owner = await addPerson(svc, tenant.organizationId, 'owner', 'Olga Owner');
    admin = await addPerson(svc, tenant.organizationId, 'admin', 'Ari Admin');
    member = await addPerson(svc, tenant.organizationId, 'member', null);
    outsider = await addPerson(svc, null, null, 'Out Sider');
    checkoutTeam = await addTeam(svc, tenant.organizationId, 'checkout', [
      member.accountId,
      admin.accountId,
    ]);
    const stranger = await createTenant(svc);
    foreignTeam = await addTeam(svc, stranger.organizationId, 'elsewhere', []);
    await ingestIssues(
      svc,
      tenant.ingestKey,
      FPS.map((fp, n) =>
        issueItem({
          fingerprint: fp,
          occurred_at: at(n * 1000),
          severity: fp === 'fp-3' ? 'info' : 'error',
        }),
      ),
    );
    for (const fp of FPS) issue[fp] = await issueIdOf(svc, owner.token, tenant.projectId, fp);
    other = await addProject(svc, tenant.organizationId);
    await ingestIssues(svc, other.ingestKey, [issueItem({ fingerprint: 'fp-other' })]);
    otherIssue = await issueIdOf(svc, owner.token, other.projectId, 'fp-other');
    await ingestIssues(svc, stranger.ingestKey, [issueItem({ fingerprint: 'fp-stranger' })]);
    const strangerOwner = await addPerson(svc, stranger.organizationId, 'owner');
    strangerIssue = await issueIdOf(svc, strangerOwner.token, stranger.projectId, 'fp-stranger');
  });
  afterAll(async () => {
    await svc.close();
  });

  describe('PATCH /api/telemetry/issues/{issue_id}', () => {
    it('changes status without touching occurrences, first/last seen or severity', async () => {
      const id = issue['fp-1'] ?? '';
      const before = (await get(id)).body as IssueJson;
      const eventsBefore = await call(svc.baseUrl, 'GET', `${path(id)}/events`, {
        token: owner.token,
      });
      const res = await patch(id, { status: 'resolved' });
      expect(res.status, res.text).toBe(200);
      const after = res.body as IssueJson;
      expect(after.status).toBe('resolved');
      expect(after).not.toHaveProperty('success');
      expect({ ...after, status: before.status }).toEqual(before);
      const eventsAfter = await call(svc.baseUrl, 'GET', `${path(id)}/events`, {
        token: owner.token,
      });
      expect(eventsAfter.body).toEqual(eventsBefore.body);
      expect((eventsAfter.body as Occurrence[]).length).toBe(1);
    });

    it('returns the issue in the requested version; archived is ignored in version 1', async () => {
      const id = issue['fp-2'] ?? '';
      const v1 = await patch(id, { status: 'archived' }, owner.token, '');
      expect(v1.status, v1.text).toBe(200);
      expect(v1.body).toMatchObject({ status: 'ignored', triage: { ignored: true } });
      expect(v1.body).not.toHaveProperty('priority');
      const v4 = (await get(id)).body as IssueJson;
      expect(v4).toMatchObject({ status: 'archived', triage: { ignored: true } });
      expect(idsOf(await list('status=archived'))).toEqual([id]);
      expect(idsOf(await list('status=ignored'))).toEqual([id]);
      // `ignored` is accepted as the old name of archived; back to unresolved clears the flag.
      const again = await patch(id, { status: 'ignored' });
      expect((again.body as IssueJson).status).toBe('archived');
      const back = await patch(id, { status: 'unresolved' }, owner.token, 'response_version=2');
      expect(back.body).toMatchObject({ status: 'unresolved', triage: { ignored: false } });
      expect(back.body).not.toHaveProperty('assignee');
    });

    it('a change to the value already held changes nothing and records no activity', async () => {
      const id = issue['fp-4'] ?? '';
      expect((await patch(id, { status: 'resolved', priority: 'low' })).status).toBe(200);
      const entries = await activityCount(id);
      const res = await patch(id, { status: 'resolved', priority: 'low' });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ status: 'resolved', priority: 'low' });
      expect(await activityCount(id)).toBe(entries);
    });

    it('priority is derived from effective severity until a person sets it, then fixed', async () => {
      const id = issue['fp-3'] ?? '';
      expect((await get(id)).body).toMatchObject({ priority: 'low', priority_source: 'derived' });
      // Setting the derived value still makes it manual.
      const same = await patch(id, { priority: 'low' });
      expect(same.body).toMatchObject({ priority: 'low', priority_source: 'manual' });
      const set = await patch(id, { priority: 'medium' });
      expect(set.body).toMatchObject({ priority: 'medium', priority_source: 'manual' });
      // A severity rule no longer moves it.
      const ruled = await rule(id, { severity: 'critical' });
      expect(ruled.body).toMatchObject({ priority: 'medium', priority_source: 'manual' });
      expect(idsOf(await list('priority=medium'))).toContain(id);
      expect(idsOf(await list('priority=high'))).not.toContain(id);
      expect((await rule(id, { severity: 'source' })).status).toBe(200);
    });

    it('assigns accounts and teams; version 3 shows a team as null, version 4 with its type', async () => {
      const id = issue['fp-5'] ?? '';
      const me = await patch(id, { assignee: 'me' });
      expect(me.status, me.text).toBe(200);
      expect((me.body as IssueJson).assignee).toEqual({
        type: 'user',
        user_id: owner.accountId,
        name: 'Olga Owner',
        email: owner.email,
      });
      const toMember = await patch(id, { assignee: member.accountId.toUpperCase() }, admin.token);
      expect(toMember.status, toMember.text).toBe(200);
      const v3 = (await get(id, 3)).body as IssueJson;
      expect(v3.assignee).toEqual({ user_id: member.accountId, name: null, email: member.email });
      const team = await patch(id, { assignee: `team:${checkoutTeam}` });
      expect((team.body as IssueJson).assignee).toEqual({
        type: 'team',
        team_id: checkoutTeam,
        slug: 'checkout',
        name: 'Checkout',
      });
      expect(((await get(id, 3)).body as IssueJson).assignee).toBeNull();
      const none = await patch(id, { assignee: 'none' });
      expect((none.body as IssueJson).assignee).toBeNull();
    });

    it('refuses an assignee who cannot read the project or a team of another organization, changing nothing', async () => {
      const id = issue['fp-6'] ?? '';
      const before = (await get(id)).body as IssueJson;
      for (const assignee of [outsider.accountId, randomUUID()]) {
        const res = await patch(id, { status: 'resolved', priority: 'low', assignee });
        expectError(res, 422, 'validation_failed');
        expect(errorText(res)).toBe('assignee cannot read this project');
      }
      for (const team of [foreignTeam, randomUUID()]) {
        const res = await patch(id, { status: 'resolved', assignee: `team:${team}` });
        expectError(res, 422, 'validation_failed');
        expect(errorText(res)).toBe('assignee team does not belong to the project organization');
      }
      expect((await get(id)).body).toEqual(before);
      expect(await activityCount(id)).toBe(1);
    });

    it('refuses bodies without a change or with other values', async () => {
      const id = issue['fp-6'] ?? '';
      for (const json of [
        {},
        { status: 'open' },
        { status: null },
        { priority: 'urgent' },
        { assignee: 'bob' },
        { assignee: null },
        { assignee: 'my_teams' },
        { assignee: 'team:nope' },
        { status: 'resolved', extra: 1 },
        { severity: 'error' },
      ])
        expectError(await patch(id, json), 422, 'validation_failed');
      expectError(
        await call(svc.baseUrl, 'PATCH', path(id), { token: owner.token, json: [] }),
        422,
        'invalid_json',
      );
      expectError(
        await call(svc.baseUrl, 'PATCH', path(id), { token: owner.token, raw: '{"status":' }),
        400,
        'invalid_json',
      );
      expectError(
        await call(svc.baseUrl, 'PATCH', path(id), {
          token: owner.token,
          raw: 'status=resolved',
          contentType: 'text/plain',
        }),
        415,
        'invalid_json',
      );
      expectError(
        await patch(id, { status: 'resolved' }, owner.token, 'response_version=5'),
        422,
        'validation_failed',
      );
      expectError(
        await patch(id, { status: 'resolved' }, owner.token, 'x=1'),
        422,
        'validation_failed',
      );
    });

    it('needs the owner or admin role: a member gets 403 and nothing changes', async () => {
      const id = issue['fp-7'] ?? '';
      const byAdmin = await patch(id, { priority: 'high' }, admin.token);
      expect(byAdmin.status, byAdmin.text).toBe(200);
      for (const json of [{ status: 'resolved' }, { assignee: 'me' }, { priority: 'low' }])
        expectError(await patch(id, json, member.token), 403, 'forbidden');
      expect((await get(id)).body).toMatchObject({
        status: 'unresolved',
        priority: 'high',
        assignee: null,
      });
      expectError(
        await call(svc.baseUrl, 'PATCH', path(id), { json: { status: 'resolved' } }),
        401,
        'unauthorized',
      );
    });

    it('unknown and unreadable issues are 404 issue not found; a non-UUID is 400', async () => {
      for (const id of [randomUUID(), strangerIssue]) {
        const res = await patch(id, { status: 'resolved' });
        expectError(res, 404, 'not_found');
        expect(errorText(res)).toBe('issue not found');
      }
      // An outsider cannot read the project: 404 before any permission check.
      expectError(
        await patch(issue['fp-7'] ?? '', { status: 'resolved' }, outsider.token),
        404,
        'not_found',
      );
      expectError(await patch('not-a-uuid', { status: 'resolved' }), 400, 'invalid_path');
    });
  });

  describe('assignee visibility and the assignee filter', () => {
    it('hides an assignee who can no longer read the project and shows it again when access returns', async () => {
      const id = issue['fp-8'] ?? '';
      const leaver = await addPerson(svc, tenant.organizationId, 'member', 'Lee Leaver');
      expect((await patch(id, { assignee: leaver.accountId })).status).toBe(200);
      expect(idsOf(await list(`assignee=${leaver.accountId}`))).toEqual([id]);
      expect(idsOf(await list('assignee=none'))).not.toContain(id);

      await removeMembership(svc, tenant.organizationId, leaver.accountId);
      for (const v of [3, 4]) expect(((await get(id, v)).body as IssueJson).assignee).toBeNull();
      expect(idsOf(await list('assignee=none'))).toContain(id);
      expect(idsOf(await list(`assignee=${leaver.accountId}`))).toEqual([]);

      await svc.deps.store.accounts.addMember({
        organizationId: tenant.organizationId,
        accountId: leaver.accountId,
        role: 'member',
      });
      expect(((await get(id)).body as IssueJson).assignee).toEqual({
        type: 'user',
        user_id: leaver.accountId,
        name: 'Lee Leaver',
        email: leaver.email,
      });
      expect(idsOf(await list(`assignee=${leaver.accountId}`))).toEqual([id]);
      expect((await patch(id, { assignee: 'none' })).status).toBe(200);
    });

    it('filters by me, none, my_teams, a user id and team:<id>', async () => {
      const mine = issue['fp-1'] ?? '';
      const teams = issue['fp-2'] ?? '';
      expect((await patch(mine, { assignee: member.accountId })).status).toBe(200);
      expect((await patch(teams, { assignee: `team:${checkoutTeam}` })).status).toBe(200);
      expect(idsOf(await list('assignee=me', member.token))).toEqual([mine]);
      expect(idsOf(await list('assignee=me'))).toEqual([]);
      expect(idsOf(await list('assignee=my_teams', member.token))).toEqual([teams]);
      // The owner is in no team.
      expect(idsOf(await list('assignee=my_teams'))).toEqual([]);
      expect(idsOf(await list(`assignee=${member.accountId}`))).toEqual([mine]);
      expect(idsOf(await list(`assignee=team:${checkoutTeam}`))).toEqual([teams]);
      expect(idsOf(await list(`assignee=team:${foreignTeam}`))).toEqual([]);
      const none = idsOf(await list('assignee=none'));
      expect(none).not.toContain(mine);
      expect(none).not.toContain(teams);
      expect(none.length).toBeGreaterThan(0);
      for (const id of [mine, teams]) await patch(id, { assignee: 'none' });
    });
  });

  describe('POST /api/telemetry/issues/bulk', () => {
    it('applies one change and reports each id in request order', async () => {
      const a = issue['fp-6'] ?? '';
      const b = issue['fp-7'] ?? '';
      expect((await patch(b, { status: 'archived' })).status).toBe(200);
      const missing = randomUUID();
      const res = await bulk({
        project_id: tenant.projectId,
        issue_ids: [b, missing, a.toUpperCase(), otherIssue],
        status: 'archived',
      });
      expect(res.status, res.text).toBe(200);
      const body = res.body as BulkResult;
      expect(body.project_id).toBe(tenant.projectId);
      expect(body.results.map((r) => [r.issue_id, r.outcome])).toEqual([
        [b, 'unchanged'],
        [missing, 'not_found'],
        [a, 'updated'],
        // An issue of another project, even a readable one, is not found in this one.
        [otherIssue, 'not_found'],
      ]);
      expect(body.results[1]?.issue).toBeNull();
      expect(body.results[3]?.issue).toBeNull();
      // Version 3 by default: status archived, assignee without a type.
      expect(body.results[2]?.issue).toMatchObject({ id: a, status: 'archived', assignee: null });
      expect(body.results[0]?.issue).toMatchObject({ id: b, status: 'archived' });
      expect(((await get(otherIssue)).body as IssueJson).status).toBe('unresolved');
    });

    it('response_version 2 gives version 4 issues; 1 or none gives version 3', async () => {
      const a = issue['fp-6'] ?? '';
      const v4 = await bulk({
        project_id: tenant.projectId,
        issue_ids: [a],
        assignee: `team:${checkoutTeam}`,
        response_version: 2,
      });
      expect(v4.status, v4.text).toBe(200);
      expect((v4.body as BulkResult).results[0]).toMatchObject({
        outcome: 'updated',
        issue: { assignee: { type: 'team', team_id: checkoutTeam } },
      });
      const v3 = await bulk({
        project_id: tenant.projectId,
        issue_ids: [a],
        assignee: `team:${checkoutTeam}`,
        response_version: 1,
      });
      expect((v3.body as BulkResult).results[0]).toMatchObject({
        outcome: 'unchanged',
        issue: { assignee: null, priority_source: 'derived' },
      });
      for (const response_version of [0, 3, 4, '2'])
        expectError(
          await bulk({
            project_id: tenant.projectId,
            issue_ids: [a],
            status: 'resolved',
            response_version,
          }),
          422,
          'validation_failed',
        );
    });

    it('takes 1 to 100 distinct ids and at least one change', async () => {
      const a = issue['fp-6'] ?? '';
      const ids100 = Array.from({ length: 100 }, () => randomUUID());
      const ok = await bulk({ project_id: tenant.projectId, issue_ids: ids100, priority: 'low' });
      expect(ok.status, ok.text).toBe(200);
      expect((ok.body as BulkResult).results.map((r) => r.outcome)).toEqual(
        ids100.map(() => 'not_found'),
      );
      for (const json of [
        { project_id: tenant.projectId, issue_ids: [], status: 'resolved' },
        { project_id: tenant.projectId, issue_ids: [...ids100, randomUUID()], status: 'resolved' },
        { project_id: tenant.projectId, issue_ids: [a, a], status: 'resolved' },
        { project_id: tenant.projectId, issue_ids: [a, a.toUpperCase()], status: 'resolved' },
        { project_id: tenant.projectId, issue_ids: ['nope'], status: 'resolved' },
        { project_id: tenant.projectId, issue_ids: [a] },
        { project_id: tenant.projectId, issue_ids: [a], status: 'open' },
        { project_id: tenant.projectId, issue_ids: [a], assignee: 'someone' },
        { project_id: tenant.projectId, issue_ids: [a], status: 'resolved', extra: true },
        { issue_ids: [a], status: 'resolved' },
        { project_id: 'nope', issue_ids: [a], status: 'resolved' },
      ])
        expectError(await bulk(json), 422, 'validation_failed');
    });

    it('an unreadable project is 404, a member gets 403, a bad assignee 422: nothing changes', async () => {
      const a = issue['fp-6'] ?? '';
      const before = (await get(a)).body;
      const change = { issue_ids: [a], status: 'unresolved' };
      const unreadable = await bulk({ project_id: randomUUID(), ...change });
      expectError(unreadable, 404, 'not_found');
      expectError(
        await bulk({ project_id: tenant.projectId, ...change }, outsider.token),
        404,
        'not_found',
      );
      expectError(
        await bulk({ project_id: tenant.projectId, ...change }, member.token),
        403,
        'forbidden',
      );
      expectError(
        await bulk({ project_id: tenant.projectId, ...change, assignee: outsider.accountId }),
        422,
        'validation_failed',
      );
      expectError(
        await bulk({ project_id: tenant.projectId, ...change, assignee: `team:${foreignTeam}` }),
        422,
        'validation_failed',
      );
      expect((await get(a)).body).toEqual(before);
    });
  });

  describe('PUT /api/telemetry/issues/{issue_id}/triage-rule', () => {
    it('overrides effective severity, never captured severity, for current and future occurrences', async () => {
      const res = await rule(issue['fp-5'] ?? '', { severity: 'warning' });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({
        severity: 'error',
        triage: { effective_severity: 'warning', rule_applied: true },
        priority: 'medium',
        priority_source: 'derived',
      });
      expect(idsOf(await list('severity=warning'))).toEqual([issue['fp-5']]);
      expect(idsOf(await list('severity=error'))).not.toContain(issue['fp-5']);

      // A new occurrence (captured as critical) keeps the rule.
      await ingestIssues(svc, tenant.ingestKey, [
        issueItem({ fingerprint: 'fp-5', occurred_at: at(60_000), severity: 'critical' }),
      ]);
      const later = (await get(issue['fp-5'] ?? '')).body as IssueJson;
      expect(later).toMatchObject({
        severity: 'critical',
        triage: { effective_severity: 'warning', rule_applied: true },
        occurrence_count: 2,
      });
      // Version 1 by default.
      const v1 = await rule(issue['fp-5'] ?? '', { severity: 'warning' }, owner.token, '');
      expect(v1.body).not.toHaveProperty('priority');
    });

    it('source removes the override', async () => {
      const res = await rule(issue['fp-5'] ?? '', { severity: 'source' });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({
        severity: 'critical',
        triage: { effective_severity: 'critical', rule_applied: false },
        priority: 'high',
      });
    });

    it('the live feed shows the rule in native_issue (version 1)', async () => {
      const id = issue['fp-4'] ?? '';
      expect((await rule(id, { severity: 'info' })).status).toBe(200);
      const feed = await openFeed(svc.baseUrl, await newTicket(svc.baseUrl, owner.token));
      try {
        await ingestIssues(svc, tenant.ingestKey, [
          issueItem({ fingerprint: 'fp-4', occurred_at: at(90_000) }),
        ]);
        const m = await feed.until((msg) => msg.type === 'native_issue' && msg.data.id === id);
        expect(m.data).toMatchObject({
          severity: 'error',
          triage: { effective_severity: 'info', rule_applied: true },
        });
        expect(m.data).not.toHaveProperty('priority');
      } finally {
        feed.close();
      }
    });

    it('refuses other values, other roles and unreadable issues', async () => {
      const id = issue['fp-5'] ?? '';
      for (const json of [
        {},
        { severity: 'fatal' },
        { severity: 'error', ignored: true },
        { severity: null },
      ])
        expectError(await rule(id, json), 422, 'validation_failed');
      expectError(
        await rule(id, { severity: 'error' }, owner.token, 'response_version=7'),
        422,
        'validation_failed',
      );
      expectError(await rule(id, { severity: 'error' }, member.token), 403, 'forbidden');
      expect((await rule(id, { severity: 'error' }, admin.token)).status).toBe(200);
      for (const missing of [randomUUID(), strangerIssue]) {
        const res = await rule(missing, { severity: 'error' });
        expectError(res, 404, 'not_found');
        expect(errorText(res)).toBe('issue not found');
      }
      expectError(await rule('x', { severity: 'error' }), 400, 'invalid_path');
    });
  });

  it('a status change by a person never deletes data', async () => {
    const id = issue['fp-1'] ?? '';
    const before = (await get(id)).body as IssueJson;
    for (const status of ['archived', 'resolved', 'unresolved'])
      expect((await patch(id, { status })).status).toBe(200);
    const after = (await get(id)).body as IssueJson;
    for (const key of ['occurrence_count', 'first_seen_at', 'last_seen_at', 'severity'])
      expect(after[key], key).toEqual(before[key]);
  });

  it('an account becomes assignable once it joins the project organization', async () => {
    // Accounts created directly in the store are assignable once they belong to the organization.
    const id = newId();
    await svc.deps.store.accounts.create({
      id,
      email: `plain-${id.slice(0, 8)}@elsewhere.test`,
      name: 'Plain',
      passwordHash: await hashPassword('x'),
      createdAt: svc.clock.now(),
      revokedBefore: null,
    });
    expectError(await patch(issue['fp-8'] ?? '', { assignee: id }), 422, 'validation_failed');
    await svc.deps.store.accounts.addMember({
      organizationId: tenant.organizationId,
      accountId: id,
      role: 'member',
    });
    expect((await patch(issue['fp-8'] ?? '', { assignee: id })).status).toBe(200);
  });
});
