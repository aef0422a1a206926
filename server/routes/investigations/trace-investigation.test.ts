import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLE_LIMITS } from '../../domain/investigation-bounds';
import { call, expectError } from '../../test-support/api-client';
import {
  BIG_TRACE,
  CHILD_SPAN,
  LEAF_SPAN,
  OTHER_TRACE,
  ROOT_SPAN,
  SMALL_TRACE,
  getAs,
  longestString,
  seedInvestigationWorld,
  type InvestigationWorld,
} from '../../test-support/investigation-world';
import { startService, type RunningService } from '../../test-support/start-service';
import { at } from '../../test-support/telemetry';

type Section = { section: string; status: string; included: number; omitted: number | null };
type Coverage = {
  complete: boolean;
  sections: Section[];
  truncated_sections: string[];
  unavailable: { section: string; reason: string }[];
};
type TraceBundle = {
  schema_version: number;
  subject: Record<string, unknown>;
  trace: { span_count: number; error_span_count: number; slowest_path: unknown[] };
  error_spans: { span_id: string; name: string; status_message: string | null }[];
  issues: { issue_id: string; occurrence_id: string }[];
  logs: { trace_id: string; occurred_at: string }[];
  coverage: Coverage;
};
type SpanBundle = {
  subject: Record<string, unknown>;
  span: {
    span_id: string;
    attributes: Record<string, unknown>;
    events: unknown[];
    status_message: string;
  };
  error: { is_error: boolean; child_count: number; child_error_count: number };
  parent_chain: { span_id: string }[];
  parent_missing: boolean;
  trace: { span_count: number };
  logs: { occurred_at: string }[];
  coverage: Coverage;
};

const sectionOf = (c: Coverage, name: string) => c.sections.find((s) => s.section === name);

describe('trace and span investigations', () => {
  let svc: RunningService<false>;
  let w: InvestigationWorld;
  const tracePath = (id: string, q = '') => `/api/telemetry/traces/${id}/investigation${q}`;
  const spanPath = (trace: string, span: string, q = '') =>
    `/api/telemetry/traces/${trace}/spans/${span}/investigation${q}`;

  beforeAll(async () => {
    svc = await startService();
    w = await seedInvestigationWorld(svc);
  }, 60_000);
  afterAll(async () => {
    await svc.close();
  });

  describe('GET /api/telemetry/traces/{trace_id}/investigation', () => {
    it.each([
      ['?project_id=x'],
      ['?response_version=2'],
      ['?limit=5'],
      ['?response_version=1&x=1'],
    ])('%s is 422', async (q) => {
      expectError(await getAs(svc, w.token, tracePath(BIG_TRACE, q)), 422, 'validation_failed');
    });

    it('unknown and unreadable traces are 404 alike; a bad id is 400; no bearer is 401', async () => {
      const unknown = await getAs(svc, w.token, tracePath('9'.repeat(32)));
      const other = await getAs(svc, w.token, tracePath(OTHER_TRACE));
      expectError(unknown, 404, 'not_found');
      expect(other.body).toEqual(unknown.body);
      expectError(await getAs(svc, w.token, tracePath('xyz')), 400, 'invalid_path');
      expectError(await call(svc.baseUrl, 'GET', tracePath(BIG_TRACE)), 401, 'unauthorized');
    });

    it('bounds 151 error spans and 1,200 logs and says so', async () => {
      const res = await getAs(
        svc,
        w.token,
        tracePath(BIG_TRACE.toUpperCase(), '?response_version=1'),
      );
      expect(res.status, res.text).toBe(200);
      const b = res.body as TraceBundle;
      expect(b.schema_version).toBe(1);
      expect(b.subject).toMatchObject({
        kind: 'trace',
        id: BIG_TRACE,
        project_id: w.tenant.projectId,
        name: 'POST /checkout',
        status: 'error',
        content_trust: 'untrusted_telemetry',
        occurred_at: at(0),
        service_name: 'checkout-api',
      });
      expect(b.trace.span_count).toBe(153);
      expect(b.trace.error_span_count).toBe(151);
      expect(b.error_spans).toHaveLength(BUNDLE_LIMITS.error_spans);
      expect(b.error_spans[0]?.status_message).toHaveLength(BUNDLE_LIMITS.text_chars);
      expect(b.logs).toHaveLength(BUNDLE_LIMITS.logs);
      expect(b.logs.every((l) => l.trace_id === BIG_TRACE)).toBe(true);
      expect(b.issues.map((i) => i.occurrence_id)).toEqual([w.occurrences.traced]);
      expect(longestString(b)).toBeLessThanOrEqual(BUNDLE_LIMITS.text_chars);
      expect(sectionOf(b.coverage, 'error_spans')).toMatchObject({
        status: 'truncated',
        included: 100,
        omitted: 51,
      });
      expect(sectionOf(b.coverage, 'logs')).toMatchObject({ included: 50, omitted: null });
      expect(sectionOf(b.coverage, 'issues')).toMatchObject({ status: 'included', omitted: 0 });
      expect(b.coverage.complete).toBe(false);
    });

    it('a small trace is complete', async () => {
      const res = await getAs(svc, w.token, tracePath(SMALL_TRACE));
      const b = res.body as TraceBundle;
      expect(b.error_spans).toEqual([]);
      expect(b.subject.status).toBe('ok');
      expect(b.coverage).toMatchObject({ complete: true, truncated_sections: [], unavailable: [] });
    });
  });

  describe('GET /api/telemetry/traces/{trace_id}/spans/{span_id}/investigation', () => {
    it.each([['?response_version=1'], ['?project_ids=a,b'], ['?release='], ['?project_id=nope']])(
      '%s is 422',
      async (q) => {
        expectError(
          await getAs(svc, w.token, spanPath(BIG_TRACE, CHILD_SPAN, q)),
          422,
          'validation_failed',
        );
      },
    );

    it('unknown spans, unreadable traces and filtered-out spans are 404 alike', async () => {
      const unknown = await getAs(svc, w.token, spanPath(BIG_TRACE, '9'.repeat(16)));
      expectError(unknown, 404, 'not_found');
      for (const p of [
        spanPath(OTHER_TRACE, ROOT_SPAN),
        spanPath(BIG_TRACE, CHILD_SPAN, '?environment=staging'),
        spanPath(BIG_TRACE, CHILD_SPAN, `?project_id=${w.other.projectId}`),
      ]) {
        const res = await getAs(svc, w.token, p);
        expectError(res, 404, 'not_found');
        expect(res.body).toEqual(unknown.body);
      }
      expectError(await getAs(svc, w.token, spanPath(BIG_TRACE, 'short')), 400, 'invalid_path');
    });

    it('the span, its error, its parent chain and the logs around it, bounded', async () => {
      const res = await getAs(
        svc,
        w.token,
        spanPath(BIG_TRACE, LEAF_SPAN, `?project_id=${w.tenant.projectId}&environment=production`),
      );
      expect(res.status, res.text).toBe(200);
      const b = res.body as SpanBundle;
      expect(b.subject).toMatchObject({ kind: 'span', id: LEAF_SPAN, status: 'ok' });
      expect(b.parent_chain.map((s) => s.span_id)).toEqual([CHILD_SPAN, ROOT_SPAN]);
      expect(b.parent_missing).toBe(false);
      expect(b.error).toEqual({
        is_error: false,
        status_message: null,
        child_count: 0,
        child_error_count: 0,
      });
      // Logs of the trace from 5 s before the span (at 200 ms) to 5 s after its end.
      expect(b.logs.length).toBeGreaterThan(0);
      expect(b.logs.every((l) => Date.parse(l.occurred_at) < Date.parse(at(5_250)))).toBe(true);
    });

    it('a failing span with 120 long attributes and 60 events stays within its limits', async () => {
      const res = await getAs(svc, w.token, spanPath(BIG_TRACE, CHILD_SPAN));
      const b = res.body as SpanBundle;
      expect(b.subject).toMatchObject({ status: 'error', content_trust: 'untrusted_telemetry' });
      expect(b.error).toMatchObject({ is_error: true, child_count: 1, child_error_count: 0 });
      expect(Object.keys(b.span.attributes)).toHaveLength(BUNDLE_LIMITS.attribute_keys);
      expect(b.span.events).toHaveLength(BUNDLE_LIMITS.span_events);
      expect(b.span.status_message).toHaveLength(BUNDLE_LIMITS.text_chars);
      expect(longestString(b)).toBeLessThanOrEqual(BUNDLE_LIMITS.text_chars);
      expect(sectionOf(b.coverage, 'span')).toMatchObject({ status: 'truncated', omitted: 40 });
      expect(b.coverage.truncated_sections).toContain('span');
    });
  });
});
