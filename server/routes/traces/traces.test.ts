import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, type ApiResponse } from '../../test-support/api-client';
import { startService, type RunningService } from '../../test-support/start-service';
import {
  NATIVE,
  at,
  createTenant,
  ingest,
  issueItem,
  nativeBody,
  spanItem,
  type NativeCounts,
  type Tenant,
} from '../../test-support/telemetry';

type Svc = RunningService<true>;
type Row = Record<string, unknown> & { trace_id: string };
type Page = {
  traces: Row[];
  next_cursor: { time: string; trace_id: string } | null;
  naming_quality: Record<string, unknown>;
};
type Span = Record<string, unknown> & { span_id: string };

const hex = (c: string, n: number) => c.repeat(n);
const T1 = hex('1', 32);
const T2 = hex('2', 32);
const T3 = hex('3', 32);
const T5 = hex('5', 32);
const UNKNOWN = hex('9', 32);
const ROOT = hex('a', 16);
const fixRequest = { code: 'fix_request', target: 'request' };

const errorText = (res: ApiResponse) => (res.body as { error: string }).error;
const traceIds = (res: ApiResponse) => (res.body as Row[]).map((t) => t.trace_id);
const spanIds = (res: ApiResponse) => (res.body as Span[]).map((s) => s.span_id);

describe('trace discovery, spans and summary', () => {
  let svc: Svc;
  let token = '';
  let projectA = '';
  let projectB = '';
  let tenant: Tenant;
  let issueId = '';

  // T1: five spans over projects A and B; one error, one orphan, a sub-millisecond span.
  const r1 = spanItem({
    trace_id: T1,
    span_id: ROOT,
    name: 'POST /checkout',
    service_name: 'web',
    kind: 'server',
    started_at: at(0),
    duration_ms: 500,
    attributes: { 'http.method': 'POST', 'http.route': '/checkout', secret_attribute: 'hidden-1' },
    events: [{ name: 'cart.validated', timestamp: at(5), attributes: { items: 2 } }],
  });
  const c1 = spanItem({
    trace_id: T1,
    span_id: hex('b', 16),
    parent_span_id: ROOT,
    name: 'GET',
    service_name: 'inventory',
    kind: 'server',
    started_at: at(10),
    duration_ms: 50,
    attributes: { 'http.method': 'GET' },
  });
  const c2 = spanItem({
    trace_id: T1,
    span_id: hex('c', 16),
    parent_span_id: ROOT,
    name: 'charge card',
    service_name: 'payments',
    operation: 'default',
    kind: 'client',
    started_at: at(20),
    duration_ms: 300,
    status: 'error',
    status_message: 'card declined',
  });
  const g1 = spanItem({
    trace_id: T1,
    span_id: hex('d', 16),
    parent_span_id: hex('c', 16),
    name: 'SELECT payments',
    service_name: 'payments',
    operation: 'db.query',
    kind: 'client',
    started_at: at(30),
    duration_ms: 0.042,
    status: undefined,
  });
  const o1 = spanItem({
    trace_id: T1,
    span_id: hex('e', 16),
    parent_span_id: hex('f', 16),
    name: 'orphan work',
    service_name: 'web',
    operation: 'queue.process',
    kind: 'internal',
    started_at: at(40),
    duration_ms: 5,
  });
  // T2: project A only, other release and environment; names look good.
  const t2Root = spanItem({
    trace_id: T2,
    name: 'GET /products/{id}',
    service_name: 'web',
    started_at: at(5000),
    duration_ms: 20,
    release: 'shop@2.0.0',
    environment: 'staging',
  });
  const t2Child = spanItem({
    trace_id: T2,
    parent_span_id: t2Root.span_id,
    name: 'SELECT products',
    operation: 'db.query',
    service_name: 'web',
    started_at: at(5001),
    duration_ms: 2,
    release: 'shop@2.0.0',
    environment: 'staging',
  });
  // T3: a raw path instead of a route template; the child arrives before its root.
  const t3Root = spanItem({
    trace_id: T3,
    name: 'GET /orders/123456',
    service_name: 'web',
    started_at: at(10_000),
    duration_ms: 1000,
  });
  const t3Child = spanItem({
    trace_id: T3,
    parent_span_id: t3Root.span_id,
    name: 'load order',
    operation: 'db.query',
    service_name: 'orders',
    started_at: at(10_100),
    duration_ms: 700,
  });

  const get = (path: string, t = token) => call(svc.baseUrl, 'GET', path, { token: t });
  const discover = (query = '') => get(`/api/telemetry/traces${query ? `?${query}` : ''}`);

  beforeAll(async () => {
    svc = await startService({ demo: true });
    token = svc.creds.account_token;
    const [a, b] = svc.creds.projects;
    projectA = a?.id ?? '';
    projectB = b?.id ?? '';
    const keyA = a?.ingest_key ?? '';
    const keyB = b?.ingest_key ?? '';
    const send = async (key: string, body: Record<string, unknown>) => {
      const res = await ingest(svc, NATIVE, key, nativeBody(body));
      expect(res.status, res.text).toBe(200);
      return res.body as NativeCounts;
    };
    await send(keyA, { trace_spans: [r1, c1, o1, t2Root, t2Child, t3Child] });
    await send(keyB, { trace_spans: [c2, g1] });
    await send(keyA, { trace_spans: [t3Root] });
    const issue = issueItem({ occurred_at: at(25), trace_id: T1, span_id: hex('c', 16) });
    await send(keyA, { issues: [issue] });
    issueId = String(
      ((await get(`/api/telemetry/issues?project_id=${projectA}`)).body as { id: string }[])[0]?.id,
    );
    tenant = await createTenant(svc);
    const res = await ingest(
      svc,
      NATIVE,
      tenant.ingestKey,
      nativeBody({ trace_spans: [spanItem({ trace_id: T5 }), spanItem({ trace_id: T1 })] }),
    );
    expect(res.status, res.text).toBe(200);
  });
  afterAll(async () => {
    await svc.close();
  });

  describe('GET /api/telemetry/traces', () => {
    it('lists readable traces newest first as a bare array of discovery rows', async () => {
      const res = await discover();
      expect(res.status, res.text).toBe(200);
      expect(traceIds(res)).toEqual([T3, T2, T1]);
      const t1 = (res.body as Row[])[2];
      expect(t1).toEqual({
        trace_id: T1,
        project_ids: [projectA, projectB].sort(),
        root_span_name: 'POST /checkout',
        root_service_name: 'web',
        root_operation: 'http.server',
        span_count: 5,
        error_span_count: 1,
        service_count: 3,
        started_at: at(0),
        duration_ms: 500,
        services: ['inventory', 'payments', 'web'],
        releases: ['shop@1.0.0'],
        environments: ['production'],
        next_action: { code: 'inspect_trace', target: 'trace_summary' },
      });
    });

    it('describes a trace by the spans of the projects in scope only', async () => {
      const onlyA = await discover(`project_id=${projectA}`);
      const rowA = (onlyA.body as Row[]).find((t) => t.trace_id === T1);
      expect(rowA).toMatchObject({
        project_ids: [projectA],
        span_count: 3,
        error_span_count: 0,
        services: ['inventory', 'web'],
      });
      const onlyB = await discover(`project_id=${projectB}`);
      expect(traceIds(onlyB)).toEqual([T1]);
      // The root was not received in B: its earliest span stands in.
      expect((onlyB.body as Row[])[0]).toMatchObject({
        root_span_name: 'charge card',
        span_count: 2,
        error_span_count: 1,
        started_at: at(20),
        duration_ms: 300,
      });
      const both = await discover(`project_ids=${projectA},${projectB}`);
      expect(traceIds(both)).toEqual([T3, T2, T1]);
    });

    it('keeps a late root as the root and counts each span once', async () => {
      const row = ((await discover()).body as Row[])[0];
      expect(row).toMatchObject({
        trace_id: T3,
        root_span_name: 'GET /orders/123456',
        span_count: 2,
      });
      const again = await ingest(
        svc,
        NATIVE,
        svc.creds.projects[0]?.ingest_key ?? '',
        nativeBody({ trace_spans: [t3Root, t3Child] }),
      );
      expect((again.body as NativeCounts).already_accepted).toBe(2);
      expect(((await discover()).body as Row[])[0]).toMatchObject({ span_count: 2 });
    });

    it('filters by status, minimum duration, service, release, environment and since', async () => {
      expect(traceIds(await discover('status=error'))).toEqual([T1]);
      expect(traceIds(await discover('status=ok'))).toEqual([T3, T2]);
      expect(traceIds(await discover('min_duration_ms=600'))).toEqual([T3]);
      expect(traceIds(await discover('min_duration_ms=500'))).toEqual([T3, T1]);
      expect(traceIds(await discover('min_duration_ms=0'))).toEqual([T3, T2, T1]);
      expect(traceIds(await discover('service_name=payments'))).toEqual([T1]);
      expect(traceIds(await discover('release=shop%402.0.0'))).toEqual([T2]);
      expect(traceIds(await discover('environment=staging'))).toEqual([T2]);
      expect(traceIds(await discover(`since=${encodeURIComponent(at(5000))}`))).toEqual([T3, T2]);
      // A filter that matches only spans outside the scope selects nothing.
      expect(traceIds(await discover(`project_id=${projectA}&service_name=payments`))).toEqual([]);
      expect(traceIds(await discover('status=error&min_duration_ms=501'))).toEqual([]);
    });

    it('pages with cursor_time and cursor_trace_id and rates the naming of each page only', async () => {
      const first = await discover('pagination=cursor&limit=2');
      expect(first.status, first.text).toBe(200);
      const p1 = first.body as Page;
      expect(p1.traces.map((t) => t.trace_id)).toEqual([T3, T2]);
      expect(p1.next_cursor).toEqual({ time: at(5000), trace_id: T2 });
      expect(p1.naming_quality).toEqual({
        evaluated_traces: 2,
        meaningful_name_traces: 1,
        generic_name_traces: 0,
        unmatched_route_traces: 1,
        generic_operation_traces: 0,
        truncated: true,
        next_action: { code: 'improve_trace_naming', target: 'sdk_configuration' },
      });
      const cursor = p1.next_cursor!;
      const second = await discover(
        `pagination=cursor&limit=2&cursor_time=${encodeURIComponent(cursor.time)}&cursor_trace_id=${cursor.trace_id}`,
      );
      const p2 = second.body as Page;
      expect(p2.traces.map((t) => t.trace_id)).toEqual([T1]);
      expect(p2.next_cursor).toBeNull();
      expect(p2.naming_quality).toEqual({
        evaluated_traces: 1,
        meaningful_name_traces: 0,
        generic_name_traces: 1,
        unmatched_route_traces: 1,
        generic_operation_traces: 1,
        truncated: false,
        next_action: { code: 'improve_trace_naming', target: 'sdk_configuration' },
      });
      const good = (await discover('pagination=cursor&release=shop%402.0.0')).body as Page;
      expect(good.naming_quality).toMatchObject({
        evaluated_traces: 1,
        meaningful_name_traces: 1,
        truncated: false,
        next_action: null,
      });
      const none = (await discover('pagination=cursor&environment=nowhere')).body as Page;
      expect(none).toEqual({
        traces: [],
        next_cursor: null,
        naming_quality: {
          evaluated_traces: 0,
          meaningful_name_traces: 0,
          generic_name_traces: 0,
          unmatched_route_traces: 0,
          generic_operation_traces: 0,
          truncated: false,
          next_action: null,
        },
      });
    });

    it('has no naming_quality without cursor mode', async () => {
      const res = await discover('limit=1');
      expect(Array.isArray(res.body)).toBe(true);
      expect(traceIds(res)).toEqual([T3]);
    });

    it.each([
      [
        'status=failed',
        'invalid query parameters: status: Invalid option: expected one of "error"|"ok"',
      ],
      ['min_duration_ms=-1', 'min_duration_ms must be an integer of at least 0'],
      ['min_duration_ms=1.5', 'min_duration_ms must be an integer of at least 0'],
      ['min_duration_ms=', 'min_duration_ms must be an integer of at least 0'],
      ['service_name=', 'service_name must not be blank'],
      ['release=%20', 'release must not be blank'],
      ['pagination=page', 'invalid query parameters: pagination: Invalid input: expected "cursor"'],
      [
        `cursor_time=${encodeURIComponent(at(0))}&cursor_trace_id=${T1}`,
        'cursor fields need pagination=cursor',
      ],
      [
        `pagination=cursor&cursor_time=${encodeURIComponent(at(0))}`,
        'send all cursor fields together: cursor_time, cursor_trace_id',
      ],
      [
        `pagination=cursor&cursor_time=yesterday&cursor_trace_id=${T1}`,
        'cursor_time must be an RFC3339 timestamp',
      ],
      [
        `pagination=cursor&cursor_time=${encodeURIComponent(at(0))}&cursor_trace_id=XYZ`,
        'cursor_trace_id must be 32 lowercase hex characters',
      ],
      ['limit=0', 'limit must be a positive integer'],
      ['since=yesterday', 'since must be a positive number of hours or days (24h, 7d) or RFC3339'],
    ])('rejects %s with 422 validation_failed', async (query, error) => {
      const res = await discover(query);
      expectError(res, 422, 'validation_failed', fixRequest);
      expect(errorText(res)).toBe(error);
    });

    it.each([
      `pagination=cursor&cursor_time=${encodeURIComponent(at(0))}&cursor_id=${'0'.repeat(8)}-0000-0000-0000-${'0'.repeat(12)}`,
      'trace_id=abc',
      'until=2025-03-04T00:00:00Z',
      'project=x',
    ])('refuses keys discovery does not take (%s)', async (query) => {
      expectError(await discover(query), 422, 'validation_failed');
    });

    it('applies the common project scope rules', async () => {
      const unreadable = await discover(`project_id=${tenant.projectId}`);
      expect(unreadable.status).toBe(200);
      expect(unreadable.body).toEqual([]);
      expectError(await discover(`project_ids=${projectA},${tenant.projectId}`), 404, 'not_found');
      expectError(
        await discover(`project_id=${projectA}&project_ids=${projectA},${projectB}`),
        422,
        'validation_failed',
      );
      expectError(await discover('project_id=nope'), 422, 'validation_failed');
      // The other tenant's span of T1 is never counted in ours.
      const t1 = ((await discover()).body as Row[]).find((t) => t.trace_id === T1);
      expect(t1?.span_count).toBe(5);
    });

    it('needs an account bearer and only takes GET', async () => {
      expectError(await get('/api/telemetry/traces', 'not-a-token'), 401, 'unauthorized');
      const post = await call(svc.baseUrl, 'POST', '/api/telemetry/traces', { token, json: {} });
      expectError(post, 405, 'method_not_allowed');
    });
  });

  describe('GET /api/telemetry/traces/{trace_id}', () => {
    it('returns every span in scope ordered by start, with null parent for the root', async () => {
      const res = await get(`/api/telemetry/traces/${T1}`);
      expect(res.status, res.text).toBe(200);
      expect(spanIds(res)).toEqual([r1.span_id, c1.span_id, c2.span_id, g1.span_id, o1.span_id]);
      const [root, , failed, tiny] = res.body as Span[];
      expect(root).toEqual({
        id: r1.id,
        project_id: projectA,
        trace_id: T1,
        span_id: ROOT,
        parent_span_id: null,
        name: 'POST /checkout',
        operation: 'http.server',
        kind: 'server',
        service_name: 'web',
        environment: 'production',
        release: 'shop@1.0.0',
        started_at: at(0),
        duration_ms: 500,
        status: null,
        status_message: null,
        attributes: r1.attributes,
        events: [{ name: 'cart.validated', timestamp: at(5), attributes: { items: 2 } }],
        sdk_name: expect.any(String) as unknown,
        sdk_version: expect.any(String) as unknown,
        next_action: { code: 'inspect_trace', target: 'trace_summary' },
      });
      expect(failed).toMatchObject({
        project_id: projectB,
        parent_span_id: ROOT,
        status: 'error',
        status_message: 'card declined',
      });
      expect(tiny).toMatchObject({ duration_ms: 0.042, status: null });
      expect(Object.keys(res.body as object)).not.toContain('next_cursor');
    });

    it('applies project, release and environment to the spans, never dropping them', async () => {
      expect(spanIds(await get(`/api/telemetry/traces/${T1}?project_id=${projectB}`))).toEqual([
        c2.span_id,
        g1.span_id,
      ]);
      const t2 = `/api/telemetry/traces/${T2}`;
      expect(spanIds(await get(`${t2}?release=shop%402.0.0&environment=staging`))).toHaveLength(2);
      for (const query of [
        'release=shop%401.0.0',
        'environment=production',
        `project_id=${projectB}`,
      ]) {
        const res = await get(`${t2}?${query}`);
        expect(res.status).toBe(200);
        expect(res.body).toEqual([]);
      }
    });

    it('answers 200 [] alike for an unknown and an unreadable trace', async () => {
      for (const id of [UNKNOWN, T5]) {
        const res = await get(`/api/telemetry/traces/${id}`);
        expect(res.status).toBe(200);
        expect(res.body).toEqual([]);
      }
      const unreadableProject = await get(
        `/api/telemetry/traces/${T1}?project_id=${tenant.projectId}`,
      );
      expect(unreadableProject.body).toEqual([]);
      // The other tenant's span of T1 is not among ours.
      expect(spanIds(await get(`/api/telemetry/traces/${T1}`))).toHaveLength(5);
    });

    it('reads an upper-case id as the same trace and refuses what is not a trace id', async () => {
      expect(spanIds(await get(`/api/telemetry/traces/${T2.toUpperCase()}`))).toHaveLength(2);
      expectError(await get('/api/telemetry/traces/not-a-trace'), 400, 'invalid_path');
      expectError(await get(`/api/telemetry/traces/${'1'.repeat(31)}`), 400, 'invalid_path');
    });

    it('takes only project_id, release and environment', async () => {
      for (const query of [
        'since=24h',
        `project_ids=${projectA},${projectB}`,
        'limit=10',
        'pagination=cursor',
      ]) {
        expectError(await get(`/api/telemetry/traces/${T1}?${query}`), 422, 'validation_failed');
      }
      expectError(await get(`/api/telemetry/traces/${T1}?release=`), 422, 'validation_failed');
    });
  });

  describe('GET /api/telemetry/traces/{trace_id}/summary', () => {
    it('summarizes root, errors, services, duration and the slowest path without attributes', async () => {
      const res = await get(`/api/telemetry/traces/${T1}/summary`);
      expect(res.status, res.text).toBe(200);
      const s = res.body as Record<string, unknown>;
      expect(s).toMatchObject({
        schema_version: 1,
        trace_id: T1,
        project_ids: [projectA, projectB].sort(),
        started_at: at(0),
        ended_at: at(500),
        duration_ms: 500,
        span_count: 5,
        error_span_count: 1,
        service_count: 3,
        root_span_missing: false,
        orphan_span_count: 1,
        releases: ['shop@1.0.0'],
        environments: ['production'],
        services: [
          { service_name: 'payments', span_count: 2, error_span_count: 1 },
          { service_name: 'web', span_count: 2, error_span_count: 0 },
          { service_name: 'inventory', span_count: 1, error_span_count: 0 },
        ],
      });
      expect(s.root_span).toEqual({
        span_id: ROOT,
        parent_span_id: null,
        name: 'POST /checkout',
        service_name: 'web',
        operation: 'http.server',
        kind: 'server',
        started_at: at(0),
        duration_ms: 500,
        status: null,
        status_message: null,
      });
      expect((s.error_spans as Span[]).map((e) => e.span_id)).toEqual([c2.span_id]);
      expect((s.slowest_path as Span[]).map((e) => e.span_id)).toEqual([
        ROOT,
        c2.span_id,
        g1.span_id,
      ]);
      expect(s.issues).toEqual([
        {
          issue_id: issueId,
          project_id: projectA,
          title: expect.any(String) as unknown,
          occurrence_id: expect.any(String) as unknown,
          span_id: hex('c', 16),
          occurred_at: at(25),
        },
      ]);
      expect(res.text).not.toContain('secret_attribute');
      expect(res.text).not.toContain('"attributes"');
      expect(Object.keys(s)).not.toContain('next_cursor');
      expect(Object.keys(s)).not.toContain('truncated');
    });

    it('stands in the earliest detached span when the root is not in scope', async () => {
      const res = await get(`/api/telemetry/traces/${T1}/summary?project_id=${projectB}`);
      expect(res.body).toMatchObject({
        root_span: { span_id: c2.span_id },
        root_span_missing: true,
        orphan_span_count: 0,
        span_count: 2,
        issues: [],
      });
    });

    it('answers 404 trace not found alike for unknown, unreadable and filtered-out traces', async () => {
      for (const path of [
        `/api/telemetry/traces/${UNKNOWN}/summary`,
        `/api/telemetry/traces/${T5}/summary`,
        `/api/telemetry/traces/${T2}/summary?environment=production`,
        `/api/telemetry/traces/${T1}/summary?project_id=${tenant.projectId}`,
      ]) {
        const res = await get(path);
        expectError(res, 404, 'not_found');
        expect(errorText(res)).toBe('trace not found');
      }
    });

    it('refuses bad ids and keys as the span list does', async () => {
      expectError(await get('/api/telemetry/traces/zz/summary'), 400, 'invalid_path');
      expectError(
        await get(`/api/telemetry/traces/${T1}/summary?since=1h`),
        422,
        'validation_failed',
      );
    });
  });
});
