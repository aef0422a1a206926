import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLE_LIMITS } from '../domain/investigation-bounds';
import { call, expectError, signIn, type ApiResponse } from '../test-support/api-client';
import {
  CUTS,
  DERIVED_TITLE_CHARS,
  HOSTILE,
  MEBI,
  hostileWorld,
  refusedEnvelopes,
  type HostileWorld,
} from '../test-support/hostile-corpus';
import { startService, type RunningService } from '../test-support/start-service';
import {
  NATIVE,
  SDK,
  createTenant,
  ingest,
  tableCounts,
  type Tenant,
} from '../test-support/telemetry';

/**
 * Hostile telemetry (markup, script and style, `javascript:`/`data:` URLs, bidi overrides,
 * zero-width characters, 1 MiB strings, 100 levels of nesting, prompt-like text) through the
 * real ingest routes: what is accepted comes back byte for byte, investigation bundles cut it
 * only as documented (never inside a surrogate pair) and mark it untrusted, and every answer is
 * JSON that a browser will not sniff into anything else.
 */

type Rec = Record<string, unknown>;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** A string that came from the corpus: markup, a bidi or zero-width control, or the tag. */
const HOSTILE_MARK = /[<\u202E\u2066-\u2069\u200B\uFEFF]|\u200D|javascript:|data:text/;

/** Every string (keys too) inside a value. */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      out.push(k);
      strings(v, out);
    }
  return out;
}

describe('hostile telemetry through the real routes', () => {
  let svc: RunningService<false>;
  let tenant: Tenant;
  let token: string;
  let w: HostileWorld;
  const responses: { path: string; res: ApiResponse }[] = [];

  const get = async <T>(path: string): Promise<T> => {
    const res = await call(svc.baseUrl, 'GET', path, { token });
    responses.push({ path, res });
    expect(res.status, `${path}: ${res.text.slice(0, 300)}`).toBe(200);
    return res.body as T;
  };

  beforeAll(async () => {
    svc = await startService();
    tenant = await createTenant(svc, { tier: 'pro', password: 'pw-hostile' });
    token = (await signIn(svc.baseUrl, tenant.email, tenant.password)).accessToken;
    w = hostileWorld('hostiletag', svc.clock.now());
    const native = await ingest(svc, NATIVE, tenant.ingestKey, w.native);
    expect(native.status, native.text).toBe(200);
    expect(native.body).toMatchObject({ issues: 2, logs: 2, trace_spans: 2, actions: 2 });
    const sdk = await ingest(svc, SDK, tenant.ingestKey, w.sdk);
    expect(sdk.status, sdk.text).toBe(200);
    expect(sdk.body).toMatchObject({ metrics: 1 });
    responses.push({ path: NATIVE, res: native }, { path: SDK, res: sdk });
  }, 60_000);
  afterAll(async () => {
    await svc.close();
  });

  const P = () => tenant.projectId;
  const issueIdOf = async (fingerprint: string) => {
    const list = await get<Rec[]>(`/api/telemetry/issues?project_id=${P()}&since=30d`);
    const issue = list.find((i) => i.fingerprint === fingerprint);
    if (!issue) throw new Error(`no issue ${fingerprint}`);
    return issue.id as string;
  };

  it('refuses hostile values over the documented sizes, or blank, and stores nothing of them', async () => {
    const before = await tableCounts(svc, P());
    for (const { what, body } of refusedEnvelopes('refusedtag', svc.clock.now())) {
      const res = await ingest(svc, NATIVE, tenant.ingestKey, body);
      expectError(res, 422, 'validation_failed');
      expect(res.headers.get('x-content-type-options'), what).toBe('nosniff');
    }
    expect(await tableCounts(svc, P())).toEqual(before);
  });

  it('reads an issue back byte for byte: title, message, stack, attributes, exception and breadcrumbs', async () => {
    const id = await issueIdOf(w.issue.fingerprint);
    const issue = await get<Rec>(`/api/telemetry/issues/${id}`);
    expect(issue).toMatchObject({
      title: w.issue.title,
      message: w.issue.message,
      stack_trace: w.issue.stack_trace,
      release: w.context.release,
      environment: w.context.environment,
      service_name: w.context.service_name,
    });
    expect(issue.attributes).toEqual(w.issue.attributes);
    const [event] = await get<Rec[]>(`/api/telemetry/issues/${id}/events`);
    expect(event?.diagnostics).toMatchObject({
      exception: w.issue.exception,
      breadcrumbs: w.issue.breadcrumbs.map((b) => ({
        ...b,
        ...(b.level === 'warn' ? { level: 'warning' } : {}),
      })),
      breadcrumbs_truncated: false,
    });
  });

  it('derives a title of 1,024 characters (code points, as ingestion counts) without splitting a surrogate pair', async () => {
    const id = await issueIdOf(w.untitledIssue.fingerprint);
    const issue = await get<Rec>(`/api/telemetry/issues/${id}`);
    const full = `E: ${w.untitledIssue.exception.value}`;
    // The emoji is the 1,024th code point: kept whole, 1,025 UTF-16 units in all.
    expect(issue.title).toBe([...full].slice(0, DERIVED_TITLE_CHARS).join(''));
    expect(issue.title).toHaveLength(DERIVED_TITLE_CHARS + 1);
    expect(issue.title as string).not.toMatch(LONE_SURROGATE);
  });

  it('reads logs, spans, actions, metrics and release rows back byte for byte, 1 MiB included', async () => {
    const log = await get<Rec>(`/api/logs/${w.ids.log}`);
    expect(log).toMatchObject({ message: w.log.message, source: w.log.source });
    expect(log.attributes).toEqual(w.log.attributes);
    expect((log.attributes as Rec).huge).toHaveLength(MEBI);
    const huge = await get<Rec>(`/api/logs/${w.ids.hugeLog}`);
    expect(huge.message).toBe(w.hugeLog.message);
    expect(huge.message).toHaveLength(MEBI);

    const spans = await get<Rec[]>(`/api/telemetry/traces/${w.traceId}`);
    const root = spans.find((s) => s.span_id === w.rootSpanId);
    const child = spans.find((s) => s.span_id === w.childSpanId);
    expect(root).toMatchObject({
      name: w.rootSpan.name,
      operation: w.rootSpan.operation,
      events: w.rootSpan.events,
    });
    expect(root?.attributes).toEqual(w.rootSpan.attributes);
    expect(child).toMatchObject({
      name: w.childSpan.name,
      status_message: w.childSpan.status_message,
      attributes: w.childSpan.attributes,
    });
    const traces = await get<Rec[]>(`/api/telemetry/traces?project_id=${P()}&since=30d`);
    expect(traces.find((t) => t.trace_id === w.traceId)?.root_span_name).toBe(w.rootSpan.name);

    const actions = await get<Rec[]>(`/api/telemetry/actions?project_id=${P()}&since=30d`);
    const action = actions.find((a) => a.id === w.ids.action);
    expect(action).toMatchObject({
      name: w.action.name,
      distinct_id: w.action.distinct_id,
      session_id: w.action.session_id,
    });
    expect(action?.properties).toEqual(w.action.properties);

    const [metric] = await get<Rec[]>(`/api/telemetry/metrics?project_id=${P()}&since=30d`);
    expect(metric).toMatchObject({ name: w.metric.name, unit: w.metric.unit });
    expect(metric?.attributes).toEqual(w.metric.attributes);

    const rows = await get<Rec[]>(`/api/telemetry/releases?project_id=${P()}&since=30d`);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows)
      expect(row).toMatchObject({
        release: w.context.release,
        environment: w.context.environment,
        service_name: w.context.service_name,
      });
  });

  it('every investigation bundle is untrusted telemetry and keeps the strings as data, cut only as documented', async () => {
    const issueId = await issueIdOf(w.issue.fingerprint);
    const q = (o: Rec) => new URLSearchParams(o as Record<string, string>).toString();
    const bundles = {
      issue: await get<Rec>(`/api/telemetry/issues/${issueId}/investigation`),
      trace: await get<Rec>(`/api/telemetry/traces/${w.traceId}/investigation`),
      span: await get<Rec>(
        `/api/telemetry/traces/${w.traceId}/spans/${w.rootSpanId}/investigation`,
      ),
      log: await get<Rec>(`/api/logs/${w.ids.log}/investigation`),
      action: await get<Rec>(`/api/telemetry/actions/${w.ids.action}/investigation`),
      release: await get<Rec>(
        `/api/telemetry/releases/investigation?${q({ project_id: P(), release: w.context.release })}`,
      ),
      metric: await get<Rec>(
        `/api/telemetry/metrics/investigation?${q({ project_id: P(), name: w.metric.name, since: '24h' })}`,
      ),
    };

    const sent = new Set(strings([w.native, w.sdk]));
    const sentList = [...sent];
    const limits = [CUTS.text, CUTS.line, CUTS.attribute];
    for (const [kind, bundle] of Object.entries(bundles)) {
      expect((bundle.subject as Rec).content_trust, kind).toBe('untrusted_telemetry');
      for (const s of strings(bundle)) {
        expect(s, `${kind}: a lone surrogate`).not.toMatch(LONE_SURROGATE);
        if (!HOSTILE_MARK.test(s) || sent.has(s)) continue;
        // Not sent as is: it must be a documented cut of something sent (a stack line is
        // trimmed first), ending before a surrogate pair it would otherwise split.
        const source = sentList.find((t) => t.includes(s) && t.length > s.length);
        expect(source, `${kind}: ${s.slice(0, 80)} was not sent`).toBeDefined();
        const cut = limits.some((n) => s.length === n || s.length === n - 1);
        const line = sentList.some((t) => t.split('\n').some((l) => l.trim() === s));
        expect(cut || line, `${kind}: cut to ${s.length}`).toBe(true);
      }
    }

    // The exact cuts: 1,000 / 300 / 256 characters, one less where a pair straddles the cut.
    const issue = bundles.issue as Rec & { occurrence: Rec; stack: Rec; breadcrumbs: Rec[] };
    expect(issue.occurrence.message).toBe(w.issue.message.slice(0, CUTS.text - 1));
    expect(issue.occurrence.title).toBe(w.issue.title.slice(0, CUTS.line - 1));
    expect((issue.occurrence.attributes as Rec).edge).toBe(
      w.issue.attributes.edge.slice(0, CUTS.attribute - 1),
    );
    expect((issue.occurrence.attributes as Rec)[HOSTILE.img]).toBe(HOSTILE.script);
    expect(issue.stack.frames).toEqual([
      `at render (${HOSTILE.javascriptUrl}:1:1)`,
      'at load (data:text/html,<script>alert("frame")</script>:2:3)',
      `at ${HOSTILE.svg} (https://evil.example/app.js:10:5)`,
      `at ${HOSTILE.rlo} (src/${HOSTILE.zeroWidth}.ts:1:1)`,
      w.issue.stack_trace
        .split('\n')[5]
        ?.trim()
        .slice(0, CUTS.line - 1),
    ]);
    expect(issue.breadcrumbs[0]?.message).toBe(
      w.issue.breadcrumbs[0]?.message.slice(0, CUTS.text - 1),
    );
    expect(issue.breadcrumbs[1]?.message).toBe(HOSTILE.prompt);
    // 100 levels are cut to the bundle's depth.
    expect(JSON.stringify(issue.occurrence.attributes)).not.toContain('"level":5');

    const log = bundles.log as Rec & { log: Rec };
    expect(log.log.message).toBe(w.log.message.slice(0, CUTS.text - 1));
    expect((log.log.attributes as Rec).huge).toHaveLength(BUNDLE_LIMITS.attribute_chars);
    expect((log.log.attributes as Rec).url).toBe(HOSTILE.javascriptUrl);

    const span = bundles.span as Rec & { span: Rec };
    expect(span.span.name).toBe(w.rootSpan.name.slice(0, CUTS.line - 1));
    const action = bundles.action as Rec & { action: Rec };
    expect(action.action.name).toBe(w.action.name);
    expect((action.action.properties as Rec).prompt).toBe(HOSTILE.prompt);
    expect((bundles.release.subject as Rec).release).toBe(w.context.release);
    expect((bundles.metric.subject as Rec).name).toBe(w.metric.name);
  });

  it('answers every read and write with JSON that is never sniffed', () => {
    expect(responses.length).toBeGreaterThan(15);
    for (const { path, res } of responses) {
      expect(res.headers.get('content-type'), path).toMatch(/^application\/json/);
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      // Markup stays inside JSON strings: the body parses and nothing precedes it.
      expect(res.text.startsWith('{') || res.text.startsWith('['), path).toBe(true);
    }
  });
});
