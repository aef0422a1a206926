import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOG_CURSOR_INCOMPLETE } from '../../domain/read-rules/catalog-query';
import { call, expectError, type ApiResponse } from '../../test-support/api-client';
import { startService, type RunningService } from '../../test-support/start-service';
import {
  NATIVE,
  T0,
  at,
  createTenant,
  ingest,
  logItem,
  nativeBody,
  type Tenant,
} from '../../test-support/telemetry';

type Entry = { path: string; type: string; observed_count: number; last_seen_at: string };
type Coverage = {
  total_logs: number;
  indexed_logs: number;
  partially_indexed_logs: number;
  unindexed_logs: number;
  index_limits: { max_depth: number; max_attributes_per_log: number; max_string_bytes: number };
};
type Catalog = {
  attributes: Entry[];
  coverage: Coverage;
  next_cursor: { observed_count: number; path: string; type: string } | null;
};
type Log = { id: string };
type Page = { logs: Log[]; next_cursor: { time: string; id: string } | null };

const HOUR = 3_600_000;
const SINCE = T0; // hour-aligned
const catalogOf = (res: ApiResponse) => res.body as Catalog;
const summary = (c: Catalog) => c.attributes.map((a) => `${a.path}:${a.type}=${a.observed_count}`);
const enc = encodeURIComponent;
const filters = (f: unknown) => `attribute_filters=${enc(JSON.stringify(f))}`;

describe('GET /api/logs/attributes and attribute filters over the index', () => {
  let svc: RunningService<true>;
  let token = '';
  let projectA = '';
  let projectB = '';
  let keyA = '';
  let tenant: Tenant;

  // Project A, all within T0 .. T0+3h.
  const a1 = logItem({
    occurred_at: at(0),
    severity: 'info',
    attributes: { http: { status: 200, method: 'GET' }, user: { plan: 'pro' } },
  });
  const a2 = logItem({
    occurred_at: at(HOUR + 10),
    severity: 'error',
    attributes: { http: { status: 503, method: 'POST' }, retry: true },
  });
  const a3 = logItem({
    occurred_at: at(2 * HOUR + 20),
    severity: 'error',
    // The same path with another type is another catalog entry.
    attributes: { http: { status: '503' }, tags: ['x', 'y'] },
  });
  // Nothing the index can search: an array and a string over the value limit.
  const unindexed = logItem({
    occurred_at: at(2 * HOUR + 30),
    severity: 'warning',
    attributes: { tags: ['z'], long: 'x'.repeat(2000) },
  });
  const bare = logItem({ occurred_at: at(2 * HOUR + 40), severity: 'info', attributes: {} });
  // Project B.
  const b1 = logItem({
    occurred_at: at(30),
    severity: 'info',
    attributes: { http: { status: 404 }, 'a/b': { '~c': 'escaped' } },
  });

  const get = (path: string, t = token) => call(svc.baseUrl, 'GET', path, { token: t });
  const catalog = async (query: string) => {
    const res = await get(`/api/logs/attributes?${query}`);
    expect(res.status, res.text).toBe(200);
    return catalogOf(res);
  };

  beforeAll(async () => {
    svc = await startService({ demo: true });
    token = svc.creds.account_token;
    const [a, b] = svc.creds.projects;
    projectA = a?.id ?? '';
    projectB = b?.id ?? '';
    keyA = a?.ingest_key ?? '';
    const okA = await ingest(
      svc,
      NATIVE,
      keyA,
      nativeBody({ logs: [a1, a2, a3, unindexed, bare] }),
    );
    expect(okA.status, okA.text).toBe(200);
    const okB = await ingest(svc, NATIVE, b?.ingest_key ?? '', nativeBody({ logs: [b1] }));
    expect(okB.status, okB.text).toBe(200);
    tenant = await createTenant(svc);
    await ingest(
      svc,
      NATIVE,
      tenant.ingestKey,
      nativeBody({ logs: [logItem({ attributes: { secret_path: 1 } })] }),
    );
  });
  afterAll(async () => {
    await svc.close();
  });

  describe('catalog', () => {
    it('lists path and type with observed_count and last_seen_at, most observed first', async () => {
      const c = await catalog(`project_id=${projectA}&since=${SINCE}`);
      expect(summary(c)).toEqual([
        '/http/method:string=2',
        '/http/status:number=2',
        '/http/status:string=1',
        '/retry:boolean=1',
        '/user/plan:string=1',
      ]);
      const status = c.attributes.find((e) => e.path === '/http/status' && e.type === 'number');
      expect(status?.last_seen_at).toBe(a2.occurred_at);
      expect(c.next_cursor).toBeNull();
    });

    it('coverage splits the range into three groups that sum to total_logs', async () => {
      const { coverage } = await catalog(`project_id=${projectA}&since=${SINCE}`);
      expect(coverage).toMatchObject({
        total_logs: 5,
        indexed_logs: 3,
        partially_indexed_logs: 1,
        unindexed_logs: 1,
      });
      expect(coverage.index_limits.max_string_bytes).toBe(1024);
    });

    it('since is inclusive to the millisecond, also inside an hour', async () => {
      const c = await catalog(`project_id=${projectA}&since=${enc(at(HOUR + 10))}`);
      expect(c.coverage.total_logs).toBe(4);
      expect(summary(c)).toContain('/retry:boolean=1');
      const later = await catalog(`project_id=${projectA}&since=${enc(at(HOUR + 11))}`);
      expect(later.coverage.total_logs).toBe(3);
      expect(summary(later)).not.toContain('/retry:boolean=1');
      expect(summary(later)).toEqual(['/http/status:string=1']);
    });

    it('type, search and the cursor narrow the attributes but never the coverage', async () => {
      const all = await catalog(`project_id=${projectA}&since=${SINCE}`);
      const numbers = await catalog(`project_id=${projectA}&since=${SINCE}&type=number`);
      expect(summary(numbers)).toEqual(['/http/status:number=2']);
      const searched = await catalog(`project_id=${projectA}&since=${SINCE}&search=HTTP`);
      expect(summary(searched)).toEqual([
        '/http/method:string=2',
        '/http/status:number=2',
        '/http/status:string=1',
      ]);
      const nothing = await catalog(`project_id=${projectA}&since=${SINCE}&search=nope`);
      expect(nothing.attributes).toEqual([]);
      for (const c of [numbers, searched, nothing]) expect(c.coverage).toEqual(all.coverage);
    });

    it('walks every entry exactly once following next_cursor', async () => {
      const all = await catalog(`project_id=${projectA}&since=${SINCE}`);
      const walked: string[] = [];
      let query = `project_id=${projectA}&since=${SINCE}&limit=2`;
      for (let pages = 0; pages < 10; pages++) {
        const page = await catalog(query);
        expect(page.attributes.length).toBeLessThanOrEqual(2);
        expect(page.coverage).toEqual(all.coverage);
        walked.push(...summary(page));
        const next = page.next_cursor;
        if (next === null) break;
        query =
          `project_id=${projectA}&since=${SINCE}&limit=2&cursor_observed_count=${next.observed_count}` +
          `&cursor_path=${enc(next.path)}&cursor_type=${next.type}`;
      }
      expect(walked).toEqual(summary(all));
    });

    it('severity compares the captured severity, not the one after log rules', async () => {
      const rule = await call(svc.baseUrl, 'PUT', `/api/logs/${a2.id}/triage-rule`, {
        token,
        json: { severity: 'info', ignored: false },
      });
      expect(rule.status, rule.text).toBe(200);
      try {
        const errors = await catalog(`project_id=${projectA}&since=${SINCE}&severity=error`);
        expect(errors.coverage.total_logs).toBe(2);
        expect(summary(errors)).toContain('/retry:boolean=1');
        const infos = await catalog(`project_id=${projectA}&since=${SINCE}&severity=info`);
        expect(infos.coverage.total_logs).toBe(2);
        expect(summary(infos)).not.toContain('/retry:boolean=1');
      } finally {
        await call(svc.baseUrl, 'PUT', `/api/logs/${a2.id}/triage-rule`, {
          token,
          json: { severity: 'source', ignored: false },
        });
      }
    });

    it('a duplicate log (same id sent again) is not counted twice', async () => {
      const again = await ingest(svc, NATIVE, keyA, nativeBody({ logs: [a1] }));
      expect(again.status, again.text).toBe(200);
      const c = await catalog(`project_id=${projectA}&since=${SINCE}`);
      expect(c.coverage.total_logs).toBe(5);
      expect(summary(c)).toContain('/user/plan:string=1');
    });

    it('reads every readable project without a scope; never another account’s', async () => {
      const c = await catalog(`since=${SINCE}`);
      expect(summary(c)).toContain('/http/status:number=3');
      expect(summary(c)).toContain('/a~1b/~0c:string=1');
      expect(c.attributes.some((e) => e.path === '/secret_path')).toBe(false);
      const set = await catalog(`project_ids=${projectA},${projectB}&since=${SINCE}`);
      expect(set).toEqual(c);
    });

    it('an unreadable project_id gives an empty catalog; in project_ids a 404', async () => {
      const c = await catalog(`project_id=${tenant.projectId}&since=${SINCE}`);
      expect(c.attributes).toEqual([]);
      expect(c.coverage.total_logs).toBe(0);
      expect(c.next_cursor).toBeNull();
      const unknown = await catalog(`project_id=${randomUUID()}&since=${SINCE}`);
      expect(unknown.coverage.total_logs).toBe(0);
      expectError(
        await get(
          `/api/logs/attributes?project_ids=${projectA},${tenant.projectId}&since=${SINCE}`,
        ),
        404,
        'not_found',
      );
    });

    it('relative since counts back from the request time', async () => {
      // Now is T0 + 1h + 1ms: 1h back starts just after a1; 2h back includes it.
      svc.clock.set(Date.parse(T0) + HOUR + 1);
      const c = await catalog(`project_id=${projectA}&since=2h`);
      expect(c.coverage.total_logs).toBe(5);
      const recent = await catalog(`project_id=${projectA}&since=1h`);
      expect(recent.coverage.total_logs).toBe(4);
    });

    it('needs an account bearer', async () => {
      expectError(await get(`/api/logs/attributes?since=${SINCE}`, ''), 401, 'unauthorized');
      expectError(await get(`/api/logs/attributes?since=${SINCE}`, keyA), 401, 'unauthorized');
    });

    it('rejects every broken query with 422', async () => {
      const cursor = 'cursor_observed_count=1&cursor_path=%2Fa&cursor_type=string';
      const bad = [
        '',
        `project_id=${projectA}`,
        'since=yesterday',
        `since=${SINCE}&until=${enc(at(HOUR))}`,
        `since=${SINCE}&pagination=cursor`,
        `since=${SINCE}&status=all`,
        `since=${SINCE}&type=object`,
        `since=${SINCE}&search=`,
        `since=${SINCE}&search=${'x'.repeat(129)}`,
        `since=${SINCE}&search=a%0Ab`,
        `since=${SINCE}&severity=warn`,
        `since=${SINCE}&limit=0`,
        `since=${SINCE}&cursor_path=%2Fa&cursor_type=string`,
        `since=${SINCE}&${cursor.replace('cursor_observed_count=1', 'cursor_observed_count=x')}`,
        `since=${SINCE}&${cursor.replace('%2Fa', 'a')}`,
        `since=${SINCE}&${cursor.replace('cursor_type=string', 'cursor_type=list')}`,
        `since=${SINCE}&project=${projectA}`,
        `since=${SINCE}&project_id=${projectA}&project_ids=${projectA},${projectB}`,
        `since=${SINCE}&search=%E0%A4%A`,
      ];
      for (const q of bad)
        expectError(await get(`/api/logs/attributes?${q}`), 422, 'validation_failed');
      const incomplete = await get(
        `/api/logs/attributes?since=${SINCE}&cursor_path=%2Fa&cursor_type=string`,
      );
      expect((incomplete.body as { error: string }).error).toBe(CATALOG_CURSOR_INCOMPLETE);
      const required = await get(`/api/logs/attributes?project_id=${projectA}`);
      expect((required.body as { error: string }).error).toContain('since');
    });
  });

  describe('attribute filters read the index', () => {
    const ids = async (query: string) => {
      const res = await get(`/api/logs?${query}`);
      expect(res.status, res.text).toBe(200);
      return (res.body as Log[]).map((l) => l.id);
    };

    it('logs the index cannot search match no filter but appear without filters', async () => {
      const plain = await ids(`project_id=${projectA}`);
      expect(plain).toContain(unindexed.id);
      const exists = (path: string, type: string) =>
        ids(`project_id=${projectA}&${filters([{ path, type, operator: 'exists' }])}`);
      expect(await exists('/long', 'string')).toEqual([]);
      expect(await exists('/tags', 'string')).toEqual([]);
      // The partly indexed log still matches on what the index holds.
      expect(await exists('/http/status', 'string')).toEqual([a3.id]);
    });

    it('a batch with more index rows than one insert holds is indexed whole', async () => {
      const project = svc.creds.projects[2];
      const items = Array.from({ length: 150 }, (_, i) =>
        logItem({ occurred_at: at(7 * HOUR + i), attributes: { n: i, tag: `t${i % 3}` } }),
      );
      const res = await ingest(svc, NATIVE, project?.ingest_key ?? '', nativeBody({ logs: items }));
      expect(res.status, res.text).toBe(200);
      const c = await catalog(`project_id=${project?.id ?? ''}&since=${SINCE}`);
      expect(summary(c)).toEqual(['/n:number=150', '/tag:string=150']);
      const f = filters([
        { path: '/n', type: 'number', operator: 'gte', value: 100 },
        { path: '/tag', type: 'string', operator: 'eq', value: 't1' },
      ]);
      const matched = await ids(`project_id=${project?.id ?? ''}&limit=1000&${f}`);
      const expected = items.filter((_, i) => i >= 100 && i % 3 === 1).map((l) => l.id);
      expect(new Set(matched)).toEqual(new Set(expected));
      expect(matched).toHaveLength(expected.length);
    });

    it('a path never seen matches nothing, with every operator', async () => {
      for (const f of [
        { path: '/nope', type: 'string', operator: 'ne', value: 'x' },
        { path: '/nope', type: 'number', operator: 'exists' },
      ])
        expect(await ids(`${filters([f])}`)).toEqual([]);
    });

    it('pages of filtered logs across projects are complete and in list order', async () => {
      const items = (n: number, project: string) =>
        Array.from({ length: n }, (_, i) =>
          logItem({
            occurred_at: at(5 * HOUR + Math.floor(i / 2) * 1000),
            message: `paged ${project} ${i}`,
            attributes: { batch: 'paged', odd: i % 2 === 1 },
          }),
        );
      const [a, b] = svc.creds.projects;
      const inA = items(9, 'a');
      const inB = items(8, 'b');
      expect(
        (await ingest(svc, NATIVE, a?.ingest_key ?? '', nativeBody({ logs: inA }))).status,
      ).toBe(200);
      expect(
        (await ingest(svc, NATIVE, b?.ingest_key ?? '', nativeBody({ logs: inB }))).status,
      ).toBe(200);
      const f = filters([
        { path: '/batch', type: 'string', operator: 'eq', value: 'PAGED' },
        { path: '/odd', type: 'boolean', operator: 'eq', value: true },
      ]);
      const wanted = [...inA.filter((_, i) => i % 2 === 1), ...inB.filter((_, i) => i % 2 === 1)]
        .map((l) => ({ id: l.id, t: l.occurred_at as string }))
        .sort((x, y) => (x.t === y.t ? (x.id < y.id ? 1 : -1) : x.t < y.t ? 1 : -1))
        .map((x) => x.id);
      const walked: string[] = [];
      let query = `pagination=cursor&limit=3&${f}`;
      for (let pages = 0; pages < 20; pages++) {
        const res = await get(`/api/logs?${query}`);
        expect(res.status, res.text).toBe(200);
        const page = res.body as Page;
        walked.push(...page.logs.map((l) => l.id));
        if (page.next_cursor === null) break;
        query = `pagination=cursor&limit=3&${f}&cursor_time=${enc(page.next_cursor.time)}&cursor_id=${page.next_cursor.id}`;
      }
      expect(walked).toEqual(wanted);
    });
  });
});
