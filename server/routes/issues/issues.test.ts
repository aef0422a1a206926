import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, type ApiResponse } from '../../test-support/api-client';
import {
  addPerson,
  addProject,
  idsOf,
  ingestIssues,
  issueIdOf,
  type IssueJson,
} from '../../test-support/issues';
import { startService, type RunningService } from '../../test-support/start-service';
import { CONTEXT, at, createTenant, issueItem, type Tenant } from '../../test-support/telemetry';

type Svc = RunningService<false>;
type Cursor = { time: string; id: string };
type IssuePage = { issues: IssueJson[]; next_cursor: Cursor | null };
type Occurrence = Record<string, unknown> & { id: string; occurred_at: string };
type OccurrencePage = { issue_id: string; events: Occurrence[]; next_cursor: Cursor | null };

const TRACE = 'c'.repeat(32);
const SPAN = 'd'.repeat(16);
const errorText = (res: ApiResponse) => (res.body as { error: string }).error;

describe('GET /api/telemetry/issues, /{issue_id} and /{issue_id}/events', () => {
  let svc: Svc;
  let tenant: Tenant;
  let token = '';
  let second = { projectId: '', ingestKey: '' };
  const ids: Record<'a' | 'b' | 'c' | 'd' | 'e' | 'x', string> = {
    a: '',
    b: '',
    c: '',
    d: '',
    e: '',
    x: '',
  };
  // Issue A: two occurrences with their own release and trace; the later one is the group's.
  const a1 = issueItem({
    fingerprint: 'fp-a',
    occurred_at: at(0),
    release: 'shop@1.0.0',
    trace_id: TRACE,
    span_id: SPAN,
    message: 'first message of A',
    breadcrumbs: [{ timestamp: at(-500), category: 'http', message: 'GET /cart' }],
    breadcrumbs_truncated: true,
  });
  const a2 = issueItem({
    fingerprint: 'fp-a',
    occurred_at: at(5000),
    release: 'shop@1.1.0',
    message: 'second message of A',
  });
  const b = issueItem({
    fingerprint: 'fp-b',
    occurred_at: at(1000),
    severity: 'warning',
    service_name: 'payments',
    environment: 'staging',
  });
  const c = issueItem({
    fingerprint: 'fp-c',
    occurred_at: at(2000),
    severity: 'info',
    exception: undefined,
    stack_trace: undefined,
    message: 'cart recalculated 3 times',
  });
  const d = issueItem({
    fingerprint: 'fp-d',
    occurred_at: at(3000),
    severity: 'fatal',
    release: 'shop@2.0.0',
  });
  const e = issueItem({ fingerprint: 'fp-e', occurred_at: at(4000) });

  const get = (path: string, t = token) => call(svc.baseUrl, 'GET', path, { token: t });
  const list = (query = '') => get(`/api/telemetry/issues?project_id=${tenant.projectId}&${query}`);

  beforeAll(async () => {
    svc = await startService();
    tenant = await createTenant(svc, { password: 'pw-for-tests' });
    token = (await addPerson(svc, tenant.organizationId, 'owner', 'Owner Two')).token;
    second = await addProject(svc, tenant.organizationId);
    await ingestIssues(svc, tenant.ingestKey, [a1, a2, b, c, d]);
    await ingestIssues(svc, second.ingestKey, [e]);
    const stranger = await createTenant(svc);
    await ingestIssues(svc, stranger.ingestKey, [issueItem({ fingerprint: 'fp-x' })]);
    for (const [k, fp] of [
      ['a', 'fp-a'],
      ['b', 'fp-b'],
      ['c', 'fp-c'],
      ['d', 'fp-d'],
    ] as const)
      ids[k] = await issueIdOf(svc, token, tenant.projectId, fp);
    ids.e = await issueIdOf(svc, token, second.projectId, 'fp-e');
    const strangerToken = (await addPerson(svc, stranger.organizationId, 'owner')).token;
    ids.x = await issueIdOf(svc, strangerToken, stranger.projectId, 'fp-x');
  });
  afterAll(async () => {
    await svc.close();
  });

  describe('the list', () => {
    it('lists every readable project newest first by last_seen_at as a bare array', async () => {
      const res = await get('/api/telemetry/issues');
      expect(res.status, res.text).toBe(200);
      // A was first seen before every other issue, but seen last.
      expect(idsOf(res)).toEqual([ids.a, ids.e, ids.d, ids.c, ids.b]);
    });

    it('is response version 1 by default: the group shows its latest occurrence', async () => {
      const res = await get(`/api/telemetry/issues/${ids.a}`);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({
        id: ids.a,
        project_id: tenant.projectId,
        fingerprint: 'fp-a',
        severity: 'error',
        triage: { effective_severity: 'error', ignored: false, rule_applied: false },
        title: 'PaymentError: card declined',
        message: 'second message of A',
        stack_trace: a2.stack_trace,
        attributes: {},
        environment: CONTEXT.environment,
        release: 'shop@1.1.0',
        service_name: CONTEXT.service_name,
        trace_id: null,
        next_action: { code: 'inspect_related_logs', target: 'telemetry_logs' },
        status: 'unresolved',
        occurrence_count: 2,
        first_seen_at: at(0),
        last_seen_at: at(5000),
        diagnostics: {
          schema_version: 1,
          exception: { type: 'PaymentError', value: 'card declined' },
          breadcrumbs_truncated: false,
        },
      });
      // Detail never carries symbolication: there are no release artifacts.
      expect(Object.keys(res.body as object)).not.toContain('symbolication');
    });

    it('versions 2 to 4 add priority, then the assignee; every issue of a response has one version', async () => {
      const v1 = (await list('response_version=1')).body as IssueJson[];
      for (const i of v1) {
        expect(i).not.toHaveProperty('priority');
        expect(i).not.toHaveProperty('priority_source');
        expect(i).not.toHaveProperty('assignee');
      }
      const v2 = (await list('response_version=2')).body as IssueJson[];
      expect(v2.map((i) => [i.id, i.priority, i.priority_source])).toEqual([
        [ids.a, 'high', 'derived'],
        [ids.d, 'high', 'derived'],
        [ids.c, 'low', 'derived'],
        [ids.b, 'medium', 'derived'],
      ]);
      for (const i of v2) expect(i).not.toHaveProperty('assignee');
      for (const v of ['3', '4']) {
        const rows = (await list(`response_version=${v}`)).body as IssueJson[];
        expect(rows).toHaveLength(4);
        for (const i of rows) {
          expect(i.assignee).toBeNull();
          expect(i.priority_source).toBe('derived');
        }
      }
      const detail = await get(`/api/telemetry/issues/${ids.d}?response_version=4`);
      expect(detail.body).toMatchObject({
        severity: 'critical',
        priority: 'high',
        priority_source: 'derived',
        assignee: null,
        status: 'unresolved',
      });
    });

    it('pages with cursors in one version per page, following next_cursor to the end', async () => {
      const seen: string[] = [];
      let query = 'pagination=cursor&limit=2&response_version=2';
      for (let pages = 0; pages < 5; pages++) {
        const res = await get(`/api/telemetry/issues?${query}`);
        expect(res.status, res.text).toBe(200);
        const page = res.body as IssuePage;
        expect(Object.keys(page).sort()).toEqual(['issues', 'next_cursor']);
        for (const i of page.issues) expect(i.priority_source).toBe('derived');
        seen.push(...page.issues.map((i) => i.id));
        if (page.next_cursor === null) break;
        const last = page.issues[page.issues.length - 1];
        expect(page.next_cursor).toEqual({ time: last?.last_seen_at, id: last?.id });
        query = `pagination=cursor&limit=2&response_version=2&cursor_time=${encodeURIComponent(page.next_cursor.time)}&cursor_id=${page.next_cursor.id}`;
      }
      expect(seen).toEqual([ids.a, ids.e, ids.d, ids.c, ids.b]);
      const last = (await get('/api/telemetry/issues?pagination=cursor')).body as IssuePage;
      expect(last.next_cursor).toBeNull();
    });

    it('filters by effective severity, priority, status, service, release and environment', async () => {
      expect(idsOf(await list('severity=critical'))).toEqual([ids.d]);
      expect(idsOf(await list('severity=warning'))).toEqual([ids.b]);
      expect(idsOf(await list('priority=high'))).toEqual([ids.a, ids.d]);
      expect(idsOf(await list('priority=low'))).toEqual([ids.c]);
      expect(idsOf(await list('status=unresolved'))).toHaveLength(4);
      expect(idsOf(await list('status=resolved'))).toEqual([]);
      expect(idsOf(await list('service_name=payments'))).toEqual([ids.b]);
      expect(idsOf(await list('environment=staging'))).toEqual([ids.b]);
      expect(idsOf(await list('release=shop%402.0.0'))).toEqual([ids.d]);
      // The issue's release is its latest occurrence's.
      expect(idsOf(await list('release=shop%401.1.0'))).toEqual([ids.a]);
      // A's first occurrence was in 1.0.0, but the issue shows its latest.
      expect(idsOf(await list('release=shop%401.0.0'))).toEqual([ids.c, ids.b]);
      expect(idsOf(await list('severity=error&priority=high'))).toEqual([ids.a]);
    });

    it('since compares last_seen_at, inclusive; compact durations are relative to now', async () => {
      // A was first seen at 0 but last seen at 5000.
      expect(idsOf(await list(`since=${encodeURIComponent(at(4500))}`))).toEqual([ids.a]);
      expect(idsOf(await list(`since=${encodeURIComponent(at(3000))}`))).toEqual([ids.a, ids.d]);
      // An hour after T0 + 2.5 s, `1h` reaches back to T0 + 2.5 s.
      const now = svc.clock.now();
      svc.clock.set(Date.parse(at(3_600_000 + 2500)));
      try {
        expect(idsOf(await list('since=1h'))).toEqual([ids.a, ids.d]);
        expect(idsOf(await list('since=2h'))).toHaveLength(4);
      } finally {
        svc.clock.set(now);
      }
    });

    it('applies the project scope rules', async () => {
      const both = await get(
        `/api/telemetry/issues?project_ids=${tenant.projectId},${second.projectId}`,
      );
      expect(idsOf(both)).toEqual([ids.a, ids.e, ids.d, ids.c, ids.b]);
      const other = await get(`/api/telemetry/issues?project_id=${second.projectId}`);
      expect(idsOf(other)).toEqual([ids.e]);
      // One unreadable project_id reads nothing; an unreadable id in a set fails the request.
      const unreadable = randomUUID();
      const one = await get(`/api/telemetry/issues?project_id=${unreadable}`);
      expect(one.status, one.text).toBe(200);
      expect(one.body).toEqual([]);
      expectError(
        await get(`/api/telemetry/issues?project_ids=${tenant.projectId},${unreadable}`),
        404,
        'not_found',
      );
      expectError(
        await get(
          `/api/telemetry/issues?project_id=${tenant.projectId}&project_ids=${tenant.projectId},${second.projectId}`,
        ),
        422,
        'validation_failed',
      );
    });

    it('refuses unknown keys, bad values, versions and cursors with 422', async () => {
      const bad = [
        'project=x',
        'status=open',
        'severity=fatal',
        'priority=urgent',
        'assignee=nobody',
        'assignee=team:not-a-uuid',
        'response_version=0',
        'response_version=5',
        'response_version=02',
        'response_version=v2',
        'since=yesterday',
        'until=2025-03-03T08%3A00%3A00Z',
        'limit=0',
        'pagination=offset',
        `cursor_time=${encodeURIComponent(at(0))}&cursor_id=${ids.a}`,
        `pagination=cursor&cursor_time=${encodeURIComponent(at(0))}`,
        `pagination=cursor&cursor_time=yesterday&cursor_id=${ids.a}`,
        'status=resolved&status=archived',
        'page=2',
        // Blank exact filters (found by list-queries.fuzz.test.ts; they were 200 []).
        'service_name=',
        'release=%20',
        'environment=%09',
      ];
      for (const q of bad) expectError(await list(q), 422, 'validation_failed');
      expect(errorText(await list('limit=%zz'))).toMatch(/^invalid query parameters/);
    });

    it('needs an account credential', async () => {
      expectError(await call(svc.baseUrl, 'GET', '/api/telemetry/issues'), 401, 'unauthorized');
      expectError(await get('/api/telemetry/issues', tenant.ingestKey), 401, 'unauthorized');
    });
  });

  describe('the detail', () => {
    it('answers every version and refuses others', async () => {
      for (const v of [1, 2, 3, 4]) {
        const res = await get(`/api/telemetry/issues/${ids.b}?response_version=${v}`);
        expect(res.status, res.text).toBe(200);
        expect((res.body as IssueJson).id).toBe(ids.b);
        expect('priority' in (res.body as object)).toBe(v >= 2);
        expect('assignee' in (res.body as object)).toBe(v >= 3);
      }
      expectError(
        await get(`/api/telemetry/issues/${ids.b}?response_version=9`),
        422,
        'validation_failed',
      );
      expectError(
        await get(`/api/telemetry/issues/${ids.b}?project_id=${tenant.projectId}`),
        422,
        'validation_failed',
      );
    });

    it('omits span_id without a span link and diagnostics without exception or breadcrumbs', async () => {
      const res = await get(`/api/telemetry/issues/${ids.c}`);
      const body = res.body as Record<string, unknown>;
      expect(body.stack_trace).toBeNull();
      expect(body.trace_id).toBeNull();
      expect(body).not.toHaveProperty('span_id');
      expect(body).not.toHaveProperty('diagnostics');
    });

    it('gives 404 issue not found for unknown and unreadable ids alike, 400 for a non-UUID', async () => {
      for (const id of [randomUUID(), ids.x]) {
        const res = await get(`/api/telemetry/issues/${id}`);
        expectError(res, 404, 'not_found');
        expect(errorText(res)).toBe('issue not found');
      }
      expectError(await get('/api/telemetry/issues/not-a-uuid'), 400, 'invalid_path');
    });
  });

  describe('occurrences', () => {
    const events = (issueId: string, query = '') =>
      get(`/api/telemetry/issues/${issueId}/events${query ? `?${query}` : ''}`);

    it('lists occurrences newest first, each with its own release, trace and message', async () => {
      const res = await events(ids.a);
      expect(res.status, res.text).toBe(200);
      const rows = res.body as Occurrence[];
      expect(rows.map((o) => o.id)).toEqual([a2.id, a1.id]);
      expect(rows[1]).toEqual({
        id: a1.id,
        issue_id: ids.a,
        project_id: tenant.projectId,
        occurred_at: at(0),
        severity: 'error',
        title: 'PaymentError: card declined',
        message: 'first message of A',
        stack_trace: a1.stack_trace,
        attributes: {},
        environment: CONTEXT.environment,
        release: 'shop@1.0.0',
        service_name: CONTEXT.service_name,
        trace_id: TRACE,
        span_id: SPAN,
        diagnostics: {
          schema_version: 1,
          exception: { type: 'PaymentError', value: 'card declined' },
          breadcrumbs: [{ timestamp: at(-500), category: 'http', message: 'GET /cart' }],
          breadcrumbs_truncated: true,
        },
        sdk_name: 'native',
        sdk_version: '1',
        next_action: { code: 'inspect_trace', target: 'trace_summary' },
      });
      expect(rows[0]).toMatchObject({ release: 'shop@1.1.0', trace_id: null });
      expect(rows[0]).not.toHaveProperty('span_id');
      for (const key of ['status', 'triage', 'priority', 'occurrence_count'])
        expect(rows[0]).not.toHaveProperty(key);
    });

    it('pages in cursor mode with occurrence ids as cursor ids', async () => {
      const first = await events(ids.a, 'pagination=cursor&limit=1');
      expect(first.status, first.text).toBe(200);
      const page = first.body as OccurrencePage;
      expect(page.issue_id).toBe(ids.a);
      expect(page.events.map((o) => o.id)).toEqual([a2.id]);
      expect(page.next_cursor).toEqual({ time: at(5000), id: a2.id });
      const next = await events(
        ids.a,
        `pagination=cursor&limit=1&cursor_time=${encodeURIComponent(at(5000))}&cursor_id=${a2.id}`,
      );
      const page2 = next.body as OccurrencePage;
      expect(page2.events.map((o) => o.id)).toEqual([a1.id]);
      expect(page2.next_cursor).toBeNull();
    });

    it('accepts only its own keys and reads only readable issues', async () => {
      for (const q of [
        'response_version=1',
        `project_id=${tenant.projectId}`,
        'since=1h',
        'limit=-1',
      ])
        expectError(await events(ids.a, q), 422, 'validation_failed');
      for (const id of [randomUUID(), ids.x]) {
        const res = await events(id);
        expectError(res, 404, 'not_found');
        expect(errorText(res)).toBe('issue not found');
      }
      expectError(await events('nope'), 400, 'invalid_path');
    });
  });

  it('fixed paths beside {issue_id} answer 405 for other methods, not invalid_path', async () => {
    for (const [method, path, allowed] of [
      ['GET', '/api/telemetry/issues/bulk', 'POST'],
      ['PATCH', '/api/telemetry/issues/bulk', 'POST'],
      ['PATCH', '/api/telemetry/issues/assignees', 'GET'],
      ['DELETE', '/api/telemetry/issues/notifications', 'GET'],
      ['GET', '/api/telemetry/issues/notifications/read', 'POST'],
      ['POST', `/api/telemetry/issues/${ids.a}`, 'GET, PATCH'],
    ] as const) {
      const res = await call(svc.baseUrl, method, path, { token });
      expectError(res, 405, 'method_not_allowed');
      expect(res.headers.get('allow'), `${method} ${path}`).toBe(allowed);
    }
  });
});
