import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLE_LIMITS } from '../../domain/investigation-bounds';
import { call, expectError, type ApiResponse } from '../../test-support/api-client';
import {
  BIG_TRACE,
  getAs,
  longestString,
  putDeployment,
  seedInvestigationWorld,
  type InvestigationWorld,
} from '../../test-support/investigation-world';
import { startService, type RunningService } from '../../test-support/start-service';
import { at } from '../../test-support/telemetry';

type Section = {
  section: string;
  status: string;
  included: number;
  omitted: number | null;
  truncated: boolean;
};
type Bundle = {
  schema_version: number;
  subject: Record<string, unknown>;
  selection: {
    requested: string | null;
    used: string;
    rule: string | null;
    response_version: number;
    occurrence_id: string;
  };
  occurrence: { id: string; message: string; attributes: Record<string, unknown> };
  stack: { header: string; frames: string[]; total_frames: number } | null;
  breadcrumbs: Record<string, unknown>[];
  trace: { trace_id: string; error_span_count: number } | null;
  logs: { trace_id: string; message: string }[];
  deployments: { deployment_id: string }[];
  coverage: {
    complete: boolean;
    sections: Section[];
    truncated_sections: string[];
    unavailable: { section: string; reason: string }[];
  };
  limits: Record<string, number>;
  next_actions: { code: string; path: string }[];
};

const section = (b: Bundle, name: string) => b.coverage.sections.find((s) => s.section === name);

describe('GET /api/telemetry/issues/{issue_id}/investigation', () => {
  let svc: RunningService<false>;
  let w: InvestigationWorld;
  const path = (q = '', id = w.issueId) => `/api/telemetry/issues/${id}/investigation${q}`;
  const read = (q = '', id?: string): Promise<ApiResponse> => getAs(svc, w.token, path(q, id));
  const bundle = async (q = '', id?: string) => {
    const res = await read(q, id);
    expect(res.status, res.text).toBe(200);
    return res.body as Bundle;
  };

  beforeAll(async () => {
    svc = await startService();
    w = await seedInvestigationWorld(svc);
  }, 60_000);
  afterAll(async () => {
    await svc.close();
  });

  describe('query keys, selection and response_version', () => {
    it.each([
      ['an unknown key', '?foo=1'],
      ['an alias that is not a key', '?trace=1'],
      [
        'selection and occurrence_id together',
        `?selection=first&occurrence_id=${'0'.repeat(8)}-0000-0000-0000-000000000000`,
      ],
      ['an unknown selection', '?selection=best'],
      ['an occurrence_id that is not a UUID', '?occurrence_id=abc'],
      ['version 1 with a selector', '?selection=latest&response_version=1'],
      ['version 14', '?selection=latest&response_version=14'],
      ['version 0 without a selector', '?response_version=0'],
      ['version 14 without a selector', '?response_version=14'],
      ['a version that is not an integer', '?response_version=2.0'],
      ['a version with a leading zero', '?response_version=02'],
      ['a repeated key', '?selection=first&selection=latest'],
    ])('%s is 422 validation_failed', async (_name, q) => {
      expectError(await read(q), 422, 'validation_failed');
    });

    it('without a selector, version 1 (the default) reads the latest occurrence', async () => {
      for (const q of ['', '?response_version=1']) {
        const b = await bundle(q);
        expect(b.selection).toMatchObject({
          requested: null,
          used: 'latest',
          response_version: 1,
          occurrence_id: w.occurrences.latest,
        });
      }
    });

    it('from version 2 without a selector, recommended is used', async () => {
      for (const v of [2, 7, 13]) {
        const b = await bundle(`?response_version=${v}`);
        expect(b.selection).toMatchObject({
          requested: null,
          used: 'recommended',
          rule: 'trace_and_stack',
          response_version: v,
          occurrence_id: w.occurrences.traced,
        });
      }
    });

    it('selection first, latest and recommended pick their occurrence (version 2 by default)', async () => {
      expect((await bundle('?selection=first')).selection).toMatchObject({
        used: 'first',
        response_version: 2,
        occurrence_id: w.occurrences.first,
      });
      expect((await bundle('?selection=latest&response_version=13')).selection.occurrence_id).toBe(
        w.occurrences.latest,
      );
      expect((await bundle('?selection=recommended')).selection.occurrence_id).toBe(
        w.occurrences.traced,
      );
    });

    it('occurrence_id reads that occurrence', async () => {
      const b = await bundle(`?occurrence_id=${w.occurrences.first.toUpperCase()}`);
      expect(b.selection).toMatchObject({
        used: 'occurrence_id',
        occurrence_id: w.occurrences.first,
      });
      expect(b.occurrence.id).toBe(w.occurrences.first);
    });

    it('recommended falls back to the latest occurrence when none has a stack', async () => {
      const b = await bundle('?selection=recommended', w.plainIssueId);
      expect(b.selection.rule).toBe('latest');
      expect(b.stack).toBeNull();
      expect(b.coverage.unavailable.map((u) => u.section)).toEqual(
        expect.arrayContaining(['stack', 'breadcrumbs', 'trace', 'logs', 'deployments']),
      );
    });
  });

  describe('404 alike, 400, 401', () => {
    it('an unknown issue, another tenant’s issue and another issue’s occurrence are 404 alike', async () => {
      const unknown = await read('', '00000000-0000-4000-8000-000000000000');
      const other = await read('', w.otherIssueId);
      expectError(unknown, 404, 'not_found');
      expectError(other, 404, 'not_found');
      expect(other.body).toEqual(unknown.body);
      expectError(await read(`?occurrence_id=${w.occurrences.other}`), 404, 'not_found');
      expectError(
        await read(`?occurrence_id=${w.occurrences.first}`, w.plainIssueId),
        404,
        'not_found',
      );
    });

    it('a path id that is not a UUID is 400 invalid_path; no bearer is 401', async () => {
      expectError(await read('', 'not-a-uuid'), 400, 'invalid_path');
      expectError(await call(svc.baseUrl, 'GET', path()), 401, 'unauthorized');
      expectError(
        await call(svc.baseUrl, 'POST', path(), { token: w.token, json: {} }),
        405,
        'method_not_allowed',
      );
    });
  });

  describe('a bounded bundle', () => {
    it('starts with schema_version and an untrusted subject', async () => {
      const b = await bundle('?selection=recommended');
      expect(Object.keys(b).slice(0, 2)).toEqual(['schema_version', 'subject']);
      expect(b.schema_version).toBe(1);
      expect(b.subject).toEqual({
        kind: 'issue',
        id: w.issueId,
        project_id: w.tenant.projectId,
        name: 'PaymentError: card declined',
        status: 'unresolved',
        content_trust: 'untrusted_telemetry',
        occurred_at: at(120),
        service_name: 'checkout-api',
        environment: 'production',
        release: 'shop@1.0.0',
      });
      expect(b.limits).toEqual(BUNDLE_LIMITS);
    });

    it('version 1 shows an archived issue as ignored, as issue version 1 does', async () => {
      const patch = await call(svc.baseUrl, 'PATCH', `/api/telemetry/issues/${w.plainIssueId}`, {
        token: w.token,
        json: { status: 'archived' },
      });
      expect(patch.status, patch.text).toBe(200);
      expect((await bundle('', w.plainIssueId)).subject.status).toBe('ignored');
      expect((await bundle('?selection=latest', w.plainIssueId)).subject.status).toBe('archived');
    });

    it('never exceeds its limits with a 500-frame stack, 200 breadcrumbs, 1,200 logs and 10k texts', async () => {
      const res = await read('?selection=recommended');
      const b = res.body as Bundle;
      expect(b.stack?.frames).toHaveLength(BUNDLE_LIMITS.stack_frames);
      expect(b.stack?.total_frames).toBe(500);
      expect(b.breadcrumbs).toHaveLength(BUNDLE_LIMITS.breadcrumbs);
      // The last breadcrumbs are kept: the nearest to the error.
      expect(String(b.breadcrumbs.at(-1)?.message)).toMatch(/^crumb 199 /);
      expect(b.logs).toHaveLength(BUNDLE_LIMITS.logs);
      expect(b.logs.every((l) => l.trace_id === BIG_TRACE)).toBe(true);
      expect(b.occurrence.message).toHaveLength(BUNDLE_LIMITS.text_chars);
      expect(Object.keys(b.occurrence.attributes)).toHaveLength(BUNDLE_LIMITS.attribute_keys);
      expect(longestString(b)).toBeLessThanOrEqual(BUNDLE_LIMITS.text_chars);
      expect(b.stack?.frames.every((f) => f.length <= BUNDLE_LIMITS.line_chars)).toBe(true);
      // 10k texts everywhere still make a small answer.
      expect(res.text.length).toBeLessThan(300_000);
      expect(b.trace?.error_span_count).toBe(151);
    });

    it('says in coverage what was cut and how much', async () => {
      const b = await bundle('?selection=recommended');
      expect(b.coverage.complete).toBe(false);
      expect(section(b, 'stack')).toMatchObject({
        status: 'truncated',
        included: 20,
        omitted: 480,
        truncated: true,
      });
      expect(section(b, 'breadcrumbs')).toMatchObject({
        included: 50,
        omitted: 150,
        truncated: true,
      });
      expect(section(b, 'logs')).toMatchObject({ included: 50, omitted: null, truncated: true });
      expect(section(b, 'occurrence')).toMatchObject({ status: 'truncated', truncated: true });
      expect(b.coverage.truncated_sections).toEqual(
        expect.arrayContaining(['occurrence', 'stack', 'breadcrumbs', 'logs']),
      );
      expect(b.coverage.unavailable).toEqual([
        { section: 'deployments', reason: expect.any(String) as string },
      ]);
    });

    it('an occurrence without a trace says why trace and logs are missing', async () => {
      const b = await bundle(`?occurrence_id=${w.occurrences.first}`);
      expect(b.trace).toBeNull();
      expect(b.logs).toEqual([]);
      const missing = Object.fromEntries(b.coverage.unavailable.map((u) => [u.section, u.reason]));
      expect(missing.trace).toBe('the occurrence has no trace id');
      expect(missing.logs).toBe('the occurrence has no trace id');
      expect(section(b, 'stack')).toMatchObject({ status: 'included', truncated: false });
    });

    it('carries the deployments of its release and a correction-verification hint', async () => {
      const id = await putDeployment(svc, w.token, w.tenant.projectId, {
        started_at: at(30_000),
        finished_at: at(31_000),
      });
      const b = await bundle('?selection=recommended');
      expect(b.deployments.map((d) => d.deployment_id)).toContain(id);
      expect(section(b, 'deployments')).toMatchObject({ status: 'included', omitted: 0 });
      const hint = b.next_actions.find((h) => h.code === 'verify_correction');
      expect(hint?.path).toBe(
        `/api/telemetry/issues/${w.issueId}/correction-verification?baseline_occurrence_id=${w.occurrences.traced}&candidate_deployment_id=${id}`,
      );
    });
  });
});
