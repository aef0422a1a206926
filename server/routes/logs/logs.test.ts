import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, signIn, type ApiResponse } from '../../test-support/api-client';
import { startService, type RunningService } from '../../test-support/start-service';
import {
  CONTEXT,
  NATIVE,
  at,
  createTenant,
  ingest,
  logItem,
  nativeBody,
  type Tenant,
} from '../../test-support/telemetry';

type Svc = RunningService<true>;
type Log = Record<string, unknown> & { id: string; occurred_at: string };
type Page = { logs: Log[]; next_cursor: { time: string; id: string } | null };

const fixRequest = { code: 'fix_request', target: 'request' };
const CONFLICT = 'log severity and level filters conflict; use one value';
const TRACE = 'a'.repeat(32);
const SPAN = 'b'.repeat(16);

const errorText = (res: ApiResponse) => (res.body as { error: string }).error;
const idsOf = (res: ApiResponse) => (res.body as Log[]).map((l) => l.id);
const filters = (f: unknown) => `attribute_filters=${encodeURIComponent(JSON.stringify(f))}`;

describe('GET /api/logs and /api/logs/{log_id}', () => {
  let svc: Svc;
  let token = '';
  let projectA = '';
  let projectB = '';
  let projectC = '';
  let tenant: Tenant;
  let tenantLog = '';
  // Project A: l1..l4 (oldest first); project B: l5.
  const l1 = logItem({
    occurred_at: at(0),
    severity: 'info',
    message: 'cart loaded',
    attributes: { cart_items: 3, http: { status: 200 }, 'a/b': 'slash', user: { plan: 'Pro' } },
    trace_id: TRACE,
    span_id: SPAN,
  });
  const l2 = logItem({
    occurred_at: at(1000),
    severity: 'warning',
    message: 'Payment SLOW',
    attributes: { cart_items: 10, http: { status: 503 }, user: { plan: 'free' }, flag: true },
  });
  const l3 = logItem({
    occurred_at: at(2000),
    level: 'error',
    severity: undefined,
    message: 'payment declined',
    attributes: { http: { status: '503' }, flag: false },
    environment: 'staging',
  });
  const l4 = logItem({
    occurred_at: at(3000),
    severity: 'fatal',
    message: 'db down',
    attributes: { 'q"k': 'quoted', 'b\\k': 1, ü: 'ÄRGER' },
    release: 'shop@2.0.0',
    service_name: 'db-worker',
    source: 'db',
  });
  const l5 = logItem({ occurred_at: at(4000), message: 'other project log' });

  const get = (path: string, t = token) => call(svc.baseUrl, 'GET', path, { token: t });
  const list = (query: string) => get(`/api/logs?project_id=${projectA}&${query}`);

  beforeAll(async () => {
    svc = await startService({ demo: true });
    token = svc.creds.account_token;
    const [a, b, c] = svc.creds.projects;
    projectA = a?.id ?? '';
    projectB = b?.id ?? '';
    projectC = c?.id ?? '';
    const okA = await ingest(
      svc,
      NATIVE,
      a?.ingest_key ?? '',
      nativeBody({ logs: [l1, l2, l3, l4] }),
    );
    expect(okA.status, okA.text).toBe(200);
    const okB = await ingest(svc, NATIVE, b?.ingest_key ?? '', nativeBody({ logs: [l5] }));
    expect(okB.status, okB.text).toBe(200);
    tenant = await createTenant(svc);
    const t = logItem();
    tenantLog = t.id;
    await ingest(svc, NATIVE, tenant.ingestKey, nativeBody({ logs: [t] }));
  });
  afterAll(async () => {
    await svc.close();
  });

  describe('records and list shape', () => {
    it('lists every readable project newest first as a bare array', async () => {
      const res = await get('/api/logs');
      expect(res.status, res.text).toBe(200);
      expect(idsOf(res)).toEqual([l5.id, l4.id, l3.id, l2.id, l1.id]);
    });

    it('returns the canonical Log record, with a trace link', async () => {
      const res = await get(`/api/logs/${l1.id}`);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({
        id: l1.id,
        project_id: projectA,
        level: 'info',
        severity: 'info',
        triage: { effective_severity: 'info', ignored: false, rule_applied: false },
        source: 'app',
        message: 'cart loaded',
        attributes: l1.attributes,
        occurred_at: at(0),
        environment: CONTEXT.environment,
        release: CONTEXT.release,
        service_name: CONTEXT.service_name,
        trace_id: TRACE,
        span_id: SPAN,
        sdk_name: expect.any(String) as unknown,
        sdk_version: expect.any(String) as unknown,
        next_action: { code: 'inspect_trace', target: 'trace_summary' },
      });
    });

    it('normalizes severity aliases and nulls absent trace fields in lists', async () => {
      const res = await list('');
      const rows = res.body as Log[];
      const critical = rows.find((l) => l.id === l4.id);
      expect(critical).toMatchObject({
        level: 'critical',
        severity: 'critical',
        triage: { effective_severity: 'critical', ignored: false, rule_applied: false },
        source: 'db',
        release: 'shop@2.0.0',
        service_name: 'db-worker',
        trace_id: null,
        span_id: null,
        next_action: { code: 'inspect_related_logs', target: 'telemetry_logs' },
      });
      expect(rows.find((l) => l.id === l3.id)).toMatchObject({ severity: 'error', level: 'error' });
    });

    it('detail: unknown, unreadable and non-UUID ids', async () => {
      const missing = await get(`/api/logs/${randomUUID()}`);
      expectError(missing, 404, 'not_found');
      expect(errorText(missing)).toBe('log not found');
      const unreadable = await get(`/api/logs/${tenantLog}`);
      expectError(unreadable, 404, 'not_found');
      expect(errorText(unreadable)).toBe('log not found');
      expectError(await get('/api/logs/not-a-uuid'), 400, 'invalid_path');
      expectError(await get(`/api/logs/${l1.id}?project=x`), 422, 'validation_failed');
      const malformed = await get(`/api/logs/${l1.id}?x=%zz`);
      expectError(malformed, 422, 'validation_failed');
      expect(errorText(malformed)).toBe('invalid query parameters');
    });
  });

  describe('authentication', () => {
    it('needs an account bearer; an ingest key is refused', async () => {
      expectError(await call(svc.baseUrl, 'GET', '/api/logs'), 401, 'unauthorized');
      expectError(await get('/api/logs', svc.creds.projects[0]?.ingest_key), 401, 'unauthorized');
      expectError(await get(`/api/logs/${l1.id}`, tenant.ingestKey), 401, 'unauthorized');
    });
  });

  describe('filters', () => {
    it('severity compares canonical values; level accepts aliases', async () => {
      expect(idsOf(await list('severity=critical'))).toEqual([l4.id]);
      expect(idsOf(await list('level=fatal'))).toEqual([l4.id]);
      expect(idsOf(await list('level=warn'))).toEqual([l2.id]);
      expect(idsOf(await list('level=debug'))).toEqual([l1.id]);
      expect(idsOf(await list('severity=error&level=error'))).toEqual([l3.id]);
      expect(idsOf(await list('severity=critical&level=fatal'))).toEqual([l4.id]);
    });

    it('rejects conflicting severity and level with the fixed text', async () => {
      const res = await list('severity=error&level=fatal');
      expectError(res, 422, 'validation_failed', fixRequest);
      expect(errorText(res)).toBe(CONFLICT);
    });

    it('rejects unknown severity or level values', async () => {
      expectError(await list('severity=warn'), 422, 'validation_failed');
      expectError(await list('severity=INFO'), 422, 'validation_failed');
      expectError(await list('level=notice'), 422, 'validation_failed');
    });

    it('search is a case-insensitive substring of the message', async () => {
      expect(idsOf(await list('search=PAYMENT'))).toEqual([l3.id, l2.id]);
      expect(idsOf(await list('search=slow'))).toEqual([l2.id]);
      expect(idsOf(await list('search=nothing-like-this'))).toEqual([]);
    });

    it('trace_id, service_name, release and environment match exactly', async () => {
      expect(idsOf(await list(`trace_id=${TRACE}`))).toEqual([l1.id]);
      expect(idsOf(await list('service_name=db-worker'))).toEqual([l4.id]);
      expect(idsOf(await list('service_name=db'))).toEqual([]);
      expect(idsOf(await list('release=shop%402.0.0'))).toEqual([l4.id]);
      expect(idsOf(await list('environment=staging'))).toEqual([l3.id]);
    });

    // Found by list-queries.fuzz.test.ts: these were answered 200 [] as if nothing matched,
    // while every other list refuses a blank exact filter.
    it('refuses a blank service_name, release or environment with 422', async () => {
      for (const key of ['service_name', 'release', 'environment'])
        for (const blank of ['', '%20', '%09%20']) {
          const res = await list(`${key}=${blank}`);
          expectError(res, 422, 'validation_failed', fixRequest);
          expect(errorText(res)).toBe(`${key} must not be blank`);
        }
    });

    // Ingest refuses a trace_id that is not 32 lowercase hex characters; the filter answered
    // such text with 200 [] as if no log carried it. Reads and writes now agree.
    it('refuses a trace_id that ingestion would refuse, with 422', async () => {
      const bad = [
        'not-a-trace',
        'A'.repeat(32),
        'a'.repeat(31),
        'a'.repeat(33),
        '',
        'g'.repeat(32),
      ];
      for (const value of bad) {
        const res = await list(`trace_id=${encodeURIComponent(value)}`);
        expectError(res, 422, 'validation_failed', fixRequest);
        expect(errorText(res)).toBe('trace_id must be 32 lowercase hex characters');
        expect((res.body as { next: string }).next).toMatch(/lowercase hex trace_id/);
      }
    });

    it('status: active by default, ignored is empty without rules, all equals active', async () => {
      const all = [l4.id, l3.id, l2.id, l1.id];
      expect(idsOf(await list('status=active'))).toEqual(all);
      expect(idsOf(await list('status=all'))).toEqual(all);
      expect(idsOf(await list('status=ignored'))).toEqual([]);
      expectError(await list('status=archived'), 422, 'validation_failed');
    });
  });

  describe('time range', () => {
    it('since is inclusive and until exclusive', async () => {
      const res = await list(`since=${at(1000)}&until=${at(3000)}`);
      expect(idsOf(res)).toEqual([l3.id, l2.id]);
      expect(idsOf(await list(`since=${encodeURIComponent('2025-03-03T10:00:02+02:00')}`))).toEqual(
        [l4.id, l3.id],
      );
    });

    it('relative since counts back from the request time', async () => {
      // The test clock stands at 09:00; the logs are at 08:00.
      expect(idsOf(await list('since=2h'))).toHaveLength(4);
      expect(idsOf(await list('since=1d'))).toHaveLength(4);
      svc.clock.advance(2 * 3_600_000);
      try {
        expect(idsOf(await list('since=1h'))).toEqual([]);
      } finally {
        svc.clock.advance(-2 * 3_600_000);
      }
    });

    it('rejects bad since and until values and empty ranges', async () => {
      for (const q of [
        'since=30m',
        'since=0h',
        'since=-1d',
        'since=yesterday',
        'until=24h',
        'until=2025-03-03',
        `since=${at(1000)}&until=${at(1000)}`,
        `since=${at(2000)}&until=${at(1000)}`,
      ])
        expectError(await list(q), 422, 'validation_failed');
    });
  });

  describe('limit', () => {
    it('limits rows, clamps over-maximum values and rejects others', async () => {
      expect(idsOf(await list('limit=2'))).toEqual([l4.id, l3.id]);
      expect(idsOf(await list('limit=5000'))).toHaveLength(4);
      for (const v of ['0', '-1', '1.5', 'ten', ''])
        expectError(await list(`limit=${v}`), 422, 'validation_failed');
    });
  });

  describe('query string', () => {
    it('rejects a malformed query string with the fixed text', async () => {
      const res = await get('/api/logs?search=%zz');
      expectError(res, 422, 'validation_failed');
      expect(errorText(res)).toBe('invalid query parameters');
    });

    it('rejects repeated keys', async () => {
      expectError(await get('/api/logs?severity=info&severity=error'), 422, 'validation_failed');
      expectError(await get('/api/logs?search=a&search=a'), 422, 'validation_failed');
    });

    it('rejects unknown keys and the aliases project, trace, user', async () => {
      for (const key of ['project', 'trace', 'user', 'page', 'page_number', 'bogus']) {
        const res = await get(`/api/logs?${key}=1`);
        expectError(res, 422, 'validation_failed');
        expect(errorText(res)).toContain(key);
      }
    });

    it('does not depend on key order', async () => {
      const a = await get(`/api/logs?project_id=${projectA}&severity=warning`);
      const b = await get(`/api/logs?severity=warning&project_id=${projectA}`);
      expect(idsOf(a)).toEqual([l2.id]);
      expect(idsOf(b)).toEqual([l2.id]);
    });
  });

  describe('project scope', () => {
    it('project_id selects one project; project_ids an exact set', async () => {
      expect(idsOf(await get(`/api/logs?project_id=${projectB}`))).toEqual([l5.id]);
      expect(idsOf(await get(`/api/logs?project_ids=${projectB},${projectA}`))).toEqual([
        l5.id,
        l4.id,
        l3.id,
        l2.id,
        l1.id,
      ]);
      expect(idsOf(await get(`/api/logs?project_ids=${projectB},${projectC}`))).toEqual([l5.id]);
    });

    it('one unreadable project_id gives 200 []', async () => {
      const res = await get(`/api/logs?project_id=${tenant.projectId}`);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual([]);
      const unknown = await get(`/api/logs?project_id=${randomUUID()}`);
      expect(unknown.status).toBe(200);
      expect(unknown.body).toEqual([]);
    });

    it('an unreadable id in project_ids gives 404 for the whole request', async () => {
      expectError(
        await get(`/api/logs?project_ids=${projectA},${tenant.projectId}`),
        404,
        'not_found',
      );
    });

    it('rejects both keys, wrong counts, duplicates and non-UUIDs', async () => {
      const many = Array.from({ length: 51 }, () => randomUUID()).join(',');
      for (const q of [
        `project_id=${projectA}&project_ids=${projectA},${projectB}`,
        `project_ids=${projectA}`,
        `project_ids=${many}`,
        `project_ids=${projectA},${projectA}`,
        `project_ids=${projectA},nope`,
        'project_id=nope',
      ])
        expectError(await get(`/api/logs?${q}`), 422, 'validation_failed');
    });
  });

  describe('cursor pagination', () => {
    const paged: string[] = [];
    beforeAll(async () => {
      // 23 logs in project C, several sharing a timestamp so the id breaks ties.
      const items = Array.from({ length: 23 }, (_, i) =>
        logItem({ occurred_at: at(Math.floor(i / 3) * 1000), message: `page log ${i}` }),
      );
      const key = svc.creds.projects[2]?.ingest_key ?? '';
      const res = await ingest(svc, NATIVE, key, nativeBody({ logs: items }));
      expect(res.status, res.text).toBe(200);
      paged.push(...items.map((l) => l.id));
    });

    it('walks every row exactly once, in list order, following next_cursor', async () => {
      const full = idsOf(await get(`/api/logs?project_id=${projectC}&limit=1000`));
      expect(full).toHaveLength(23);
      expect([...full].sort()).toEqual([...paged].sort());
      const seen: string[] = [];
      let cursor: Page['next_cursor'] = null;
      let pages = 0;
      do {
        const extra: string = cursor
          ? `&cursor_time=${encodeURIComponent(cursor.time)}&cursor_id=${cursor.id}`
          : '';
        const res = await get(`/api/logs?project_id=${projectC}&pagination=cursor&limit=5${extra}`);
        expect(res.status, res.text).toBe(200);
        const page = res.body as Page;
        expect(Object.keys(page).sort()).toEqual(['logs', 'next_cursor']);
        expect(page.logs.length).toBeLessThanOrEqual(5);
        seen.push(...page.logs.map((l) => l.id));
        cursor = page.next_cursor;
        pages++;
      } while (cursor !== null && pages < 20);
      expect(pages).toBe(5);
      expect(seen).toEqual(full);
    });

    it('gives next_cursor null on a last page with exactly limit rows', async () => {
      const res = await get(`/api/logs?project_id=${projectA}&pagination=cursor&limit=4`);
      expect((res.body as Page).logs).toHaveLength(4);
      expect((res.body as Page).next_cursor).toBeNull();
      const empty = await get(`/api/logs?project_id=${tenant.projectId}&pagination=cursor`);
      expect(empty.body).toEqual({ logs: [], next_cursor: null });
    });

    it('next_cursor is the time and id of the last row', async () => {
      const res = await get(`/api/logs?project_id=${projectA}&pagination=cursor&limit=2`);
      const page = res.body as Page;
      expect(page.next_cursor).toEqual({ time: at(2000), id: l3.id });
    });

    it('rejects bad pagination and cursor sets', async () => {
      const t = encodeURIComponent(at(0));
      const id = randomUUID();
      for (const q of [
        'pagination=offset',
        'pagination=',
        `cursor_time=${t}&cursor_id=${id}`,
        `pagination=cursor&cursor_time=${t}`,
        `pagination=cursor&cursor_id=${id}`,
        `pagination=cursor&cursor_time=yesterday&cursor_id=${id}`,
        `pagination=cursor&cursor_time=${t}&cursor_id=nope`,
        'pagination=cursor&page=2',
        'pagination=cursor&page_number=2',
      ])
        expectError(await list(q), 422, 'validation_failed');
    });
  });

  describe('attribute filters', () => {
    const match = async (f: unknown) => {
      const res = await list(filters(f));
      expect(res.status, res.text).toBe(200);
      return idsOf(res);
    };
    const s = (path: string, operator: string, value?: unknown, extra = {}) => ({
      path,
      type: 'string',
      operator,
      ...(value === undefined ? {} : { value }),
      ...extra,
    });

    it('string eq is case-insensitive unless case_sensitive', async () => {
      expect(await match([s('/user/plan', 'eq', 'pro')])).toEqual([l1.id]);
      expect(await match([s('/user/plan', 'eq', 'pro', { case_sensitive: true })])).toEqual([]);
      expect(await match([s('/user/plan', 'eq', 'Pro', { case_sensitive: true })])).toEqual([
        l1.id,
      ]);
    });

    it('ne matches only logs that have the path', async () => {
      expect(await match([s('/user/plan', 'ne', 'pro')])).toEqual([l2.id]);
    });

    it('contains and starts_with', async () => {
      expect(await match([s('/user/plan', 'contains', 'RE')])).toEqual([l2.id]);
      expect(await match([s('/user/plan', 'starts_with', 'p')])).toEqual([l1.id]);
      expect(await match([s('/user/plan', 'starts_with', 'p', { case_sensitive: true })])).toEqual(
        [],
      );
    });

    it('numbers compare as numbers; the JSON type must match', async () => {
      const n = (operator: string, value: number) => ({
        path: '/http/status',
        type: 'number',
        operator,
        value,
      });
      expect(await match([n('gt', 300)])).toEqual([l2.id]);
      expect(await match([n('lt', 300)])).toEqual([l1.id]);
      expect(await match([n('gte', 200)])).toEqual([l2.id, l1.id]);
      expect(await match([n('lte', 199)])).toEqual([]);
      expect(await match([n('eq', 503)])).toEqual([l2.id]);
      expect(await match([s('/http/status', 'eq', '503')])).toEqual([l3.id]);
    });

    it('booleans and exists', async () => {
      const b = (operator: string, value?: boolean) => ({
        path: '/flag',
        type: 'boolean',
        operator,
        ...(value === undefined ? {} : { value }),
      });
      expect(await match([b('exists')])).toEqual([l3.id, l2.id]);
      expect(await match([b('eq', true)])).toEqual([l2.id]);
      expect(await match([b('ne', true)])).toEqual([l3.id]);
      expect(await match([s('/flag', 'exists')])).toEqual([]);
      expect(await match([{ path: '/cart_items', type: 'number', operator: 'exists' }])).toEqual([
        l2.id,
        l1.id,
      ]);
    });

    it('paths keep ~1 and ~0 escapes', async () => {
      expect(await match([s('/a~1b', 'eq', 'slash')])).toEqual([l1.id]);
      expect(await match([s('/a/b', 'exists')])).toEqual([]);
    });

    it('keys with quotes, backslashes and non-ASCII text match; case folding is Unicode', async () => {
      expect(await match([s('/q"k', 'eq', 'QUOTED')])).toEqual([l4.id]);
      expect(await match([{ path: '/b\\k', type: 'number', operator: 'eq', value: 1 }])).toEqual([
        l4.id,
      ]);
      expect(await match([s('/ü', 'eq', 'ärger')])).toEqual([l4.id]);
      expect(await match([s('/ü', 'contains', 'rg')])).toEqual([l4.id]);
    });

    it('all filters must match', async () => {
      const both = [
        { path: '/cart_items', type: 'number', operator: 'gt', value: 1 },
        s('/user/plan', 'eq', 'free'),
      ];
      expect(await match(both)).toEqual([l2.id]);
      expect(await match([both[0], s('/user/plan', 'eq', 'none')])).toEqual([]);
    });

    it('rejects every broken filter with 422', async () => {
      const five = Array.from({ length: 5 }, () => s('/a', 'exists'));
      const bad: string[] = [
        'attribute_filters=not-json',
        filters([]),
        filters({}),
        filters(five),
        filters([s('/a', 'eq', 'x'.repeat(4100))]),
        filters([s('/a', 'eq', 'x'.repeat(1025))]),
        filters([s('a', 'eq', 'x')]),
        filters([s('/a~2', 'eq', 'x')]),
        filters([{ path: '/a', type: 'object', operator: 'eq', value: 'x' }]),
        filters([s('/a', 'gt', 'x')]),
        filters([s('/a', 'like', 'x')]),
        filters([s('/a', 'eq', 500)]),
        filters([{ path: '/a', type: 'number', operator: 'eq', value: '500' }]),
        filters([{ path: '/a', type: 'boolean', operator: 'eq', value: 'true' }]),
        filters([{ path: '/a', type: 'number', operator: 'eq', value: 9007199254740994 }]),
        filters([{ path: '/a', type: 'number', operator: 'eq', value: 1, case_sensitive: true }]),
        filters([s('/a', 'contains', '')]),
        filters([s('/a', 'starts_with', '')]),
        filters([s('/a', 'eq')]),
      ];
      for (const q of bad) expectError(await list(q), 422, 'validation_failed');
    });
  });

  // PostgreSQL text cannot hold U+0000: it is escaped on the way in and out (pg-text.ts).
  describe('text holding U+0000', () => {
    it('is stored whole and found by exact filters, search and attribute filters', async () => {
      const nul = logItem({
        message: 'before\u0000After',
        release: 'r\u0000',
        attributes: { k: 'V\u0000x\uE000', ['n\u0000']: 1 },
      });
      const owner = await createTenant(svc, { password: 'nul-tenant-password' });
      const ok = await ingest(svc, NATIVE, owner.ingestKey, nativeBody({ logs: [nul] }));
      expect(ok.status, ok.text).toBe(200);
      const own = (await signIn(svc.baseUrl, owner.email, owner.password)).accessToken;
      const read = async (q: string) => {
        const res = await get(`/api/logs?project_id=${owner.projectId}&${q}`, own);
        expect(res.status, res.text).toBe(200);
        return idsOf(res);
      };
      const one = await get(`/api/logs/${nul.id}`, own);
      expect(one.body).toMatchObject({
        message: 'before\u0000After',
        release: 'r\u0000',
        attributes: { k: 'V\u0000x\uE000', ['n\u0000']: 1 },
      });
      expect(await read('release=r%00')).toEqual([nul.id]);
      expect(await read('release=r')).toEqual([]);
      expect(await read('search=%00a')).toEqual([nul.id]);
      const str = (operator: string, value: string, extra = {}) => ({
        path: '/k',
        type: 'string',
        operator,
        value,
        ...extra,
      });
      expect(await read(filters([str('eq', 'v\u0000x\uE000')]))).toEqual([nul.id]);
      expect(await read(filters([str('eq', 'v\u0000x')]))).toEqual([]);
      expect(
        await read(filters([str('starts_with', 'V\u0000', { case_sensitive: true })])),
      ).toEqual([nul.id]);
      expect(await read(filters([str('contains', '\u0000x')]))).toEqual([nul.id]);
      const path = { path: '/n\u0000', type: 'number', operator: 'exists' };
      expect(await read(filters([path]))).toEqual([nul.id]);
    });
  });
});
