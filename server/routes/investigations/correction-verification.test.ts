import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError } from '../../test-support/api-client';
import { issueIdOf } from '../../test-support/issues';
import {
  getAs,
  putDeployment,
  seedInvestigationWorld,
  type InvestigationWorld,
} from '../../test-support/investigation-world';
import { startService, type RunningService } from '../../test-support/start-service';
import { NATIVE, at, ingest, issueItem, nativeBody } from '../../test-support/telemetry';

type Verification = {
  schema_version: number;
  subject: Record<string, unknown>;
  baseline: { occurrence_id: string };
  deployment: { deployment_id: string };
  observation: { observed_seconds: number; minimum_observation_seconds: number };
  occurrences: { before: number; during: number; after: number; after_on_deployed_release: number };
  first_recurrence: { occurrence_id: string; release: string } | null;
  recurrence_releases: { release: string; occurrences: number; is_deployed_release: boolean }[];
  verdict: string;
  reasons: { code: string; message: string }[];
  coverage: { complete: boolean };
};

const HOUR = 3_600_000;
// The test clock stands at T0 + 1 h; times below are relative to T0.

describe('GET /api/telemetry/issues/{issue_id}/correction-verification', () => {
  let svc: RunningService<false>;
  let w: InvestigationWorld;
  let n = 0;
  const path = (issueId: string, q: string) =>
    `/api/telemetry/issues/${issueId}/correction-verification${q}`;
  const verify = async (issueId: string, baseline: string, deployment: string) => {
    const res = await getAs(
      svc,
      w.token,
      path(issueId, `?baseline_occurrence_id=${baseline}&candidate_deployment_id=${deployment}`),
    );
    expect(res.status, res.text).toBe(200);
    return res.body as Verification;
  };
  /** A fresh issue with one baseline occurrence at `baselineAt` (ms from T0). */
  const freshIssue = async (baselineAt: number) => {
    const fingerprint = `cv-${(n += 1)}`;
    const baseline = issueItem({ fingerprint, occurred_at: at(baselineAt) });
    const res = await ingest(svc, NATIVE, w.tenant.ingestKey, nativeBody({ issues: [baseline] }));
    expect(res.status, res.text).toBe(200);
    return {
      fingerprint,
      baseline: baseline.id,
      issueId: await issueIdOf(svc, w.token, w.tenant.projectId, fingerprint),
    };
  };
  const recur = async (fingerprint: string, atMs: number, o: Record<string, unknown> = {}) => {
    const item = issueItem({ fingerprint, occurred_at: at(atMs) });
    const res = await ingest(svc, NATIVE, w.tenant.ingestKey, nativeBody({ ...o, issues: [item] }));
    expect(res.status, res.text).toBe(200);
    return item.id;
  };
  const deploy = (o: Record<string, unknown> & { started_at: string; finished_at: string }) =>
    putDeployment(svc, w.token, w.tenant.projectId, { release: 'shop@1.0.1', ...o });

  beforeAll(async () => {
    svc = await startService();
    w = await seedInvestigationWorld(svc);
  }, 60_000);
  afterAll(async () => {
    await svc.close();
  });

  describe('query keys and 404s', () => {
    it.each([
      ['no key', ''],
      ['no candidate', '?baseline_occurrence_id=00000000-0000-4000-8000-000000000000'],
      ['no baseline', '?candidate_deployment_id=dep-1'],
      ['a baseline that is not a UUID', '?baseline_occurrence_id=x&candidate_deployment_id=dep-1'],
      [
        'a candidate that is not a deployment id',
        '?baseline_occurrence_id=00000000-0000-4000-8000-000000000000&candidate_deployment_id=-bad',
      ],
      [
        'an unknown key',
        '?baseline_occurrence_id=00000000-0000-4000-8000-000000000000&candidate_deployment_id=d&since=1h',
      ],
    ])('%s is 422', async (_name, q) => {
      expectError(await getAs(svc, w.token, path(w.issueId, q)), 422, 'validation_failed');
    });

    it('unknown or unreadable issue, foreign occurrence or deployment are 404', async () => {
      const dep = await deploy({ started_at: at(0), finished_at: at(1) });
      const q = (occ: string, d: string) =>
        `?baseline_occurrence_id=${occ}&candidate_deployment_id=${d}`;
      const unknown = await getAs(
        svc,
        w.token,
        path('00000000-0000-4000-8000-000000000000', q(w.occurrences.first, dep)),
      );
      expectError(unknown, 404, 'not_found');
      const other = await getAs(svc, w.token, path(w.otherIssueId, q(w.occurrences.other, dep)));
      expect(other.body).toEqual(unknown.body);
      // An occurrence of another issue, a deployment unknown in the issue's project.
      expectError(
        await getAs(svc, w.token, path(w.plainIssueId, q(w.occurrences.first, dep))),
        404,
        'not_found',
      );
      expectError(
        await getAs(svc, w.token, path(w.issueId, q(w.occurrences.first, 'dep-unknown'))),
        404,
        'not_found',
      );
      const foreign = await putDeployment(svc, w.otherToken, w.other.projectId, {
        started_at: at(0),
        finished_at: at(1),
      });
      expectError(
        await getAs(svc, w.token, path(w.issueId, q(w.occurrences.first, foreign))),
        404,
        'not_found',
      );
      expectError(
        await call(svc.baseUrl, 'GET', path(w.issueId, q(w.occurrences.first, dep))),
        401,
        'unauthorized',
      );
    });
  });

  describe('verdicts', () => {
    it('not_recurred_yet after an hour without recurrence, then recurred once one arrives', async () => {
      const i = await freshIssue(-4 * HOUR);
      await recur(i.fingerprint, -3 * HOUR);
      const dep = await deploy({ started_at: at(-2 * HOUR), finished_at: at(-2 * HOUR + 600_000) });
      const quiet = await verify(i.issueId, i.baseline, dep);
      expect(quiet.schema_version).toBe(1);
      expect(quiet.subject).toMatchObject({
        kind: 'issue',
        id: i.issueId,
        content_trust: 'untrusted_telemetry',
      });
      expect(quiet.verdict).toBe('not_recurred_yet');
      expect(quiet.reasons).toEqual([]);
      expect(quiet.occurrences).toEqual({
        before: 2,
        during: 0,
        after: 0,
        after_on_deployed_release: 0,
      });
      expect(quiet.first_recurrence).toBeNull();
      expect(quiet.observation.minimum_observation_seconds).toBe(3600);

      // A recurrence in another environment does not count; one in the same one does.
      await recur(i.fingerprint, -HOUR, { environment: 'staging' });
      expect((await verify(i.issueId, i.baseline, dep)).verdict).toBe('not_recurred_yet');
      const again = await recur(i.fingerprint, -HOUR / 2, { release: 'shop@1.0.1' });
      const loud = await verify(i.issueId, i.baseline, dep);
      expect(loud.verdict).toBe('recurred');
      expect(loud.first_recurrence).toEqual({
        occurrence_id: again,
        occurred_at: at(-HOUR / 2),
        release: 'shop@1.0.1',
      });
      expect(loud.occurrences).toMatchObject({ after: 1, after_on_deployed_release: 1 });
      expect(loud.recurrence_releases).toEqual([
        { release: 'shop@1.0.1', occurrences: 1, is_deployed_release: true },
      ]);
    });

    it('inconclusive: not enough time since the deployment', async () => {
      const i = await freshIssue(-2 * HOUR);
      const dep = await deploy({ started_at: at(HOUR - 900_000), finished_at: at(HOUR - 600_000) });
      const v = await verify(i.issueId, i.baseline, dep);
      expect(v.verdict).toBe('inconclusive');
      expect(v.reasons.map((r) => r.code)).toEqual(['not_enough_time']);
      expect(v.observation.observed_seconds).toBe(600);
    });

    it('inconclusive: a failed deployment, another environment or service, a later baseline', async () => {
      const i = await freshIssue(-4 * HOUR);
      const window = { started_at: at(-3 * HOUR), finished_at: at(-3 * HOUR + 60_000) };
      const failed = await deploy({ ...window, status: 'failed' });
      expect((await verify(i.issueId, i.baseline, failed)).reasons.map((r) => r.code)).toEqual([
        'deployment_failed',
      ]);
      const staging = await deploy({ ...window, environment: 'staging', service_name: 'payments' });
      const v = await verify(i.issueId, i.baseline, staging);
      expect(v.verdict).toBe('inconclusive');
      expect(v.reasons.map((r) => r.code)).toEqual(['environment_mismatch', 'service_mismatch']);
      const early = await deploy({ started_at: at(-6 * HOUR), finished_at: at(-5 * HOUR) });
      expect((await verify(i.issueId, i.baseline, early)).reasons.map((r) => r.code)).toEqual([
        'baseline_after_deployment',
      ]);
      // Even a recurrence does not make a failed deployment's verdict `recurred`.
      await recur(i.fingerprint, -HOUR);
      expect((await verify(i.issueId, i.baseline, failed)).verdict).toBe('inconclusive');
    });
  });
});
