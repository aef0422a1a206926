import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { CoverageBuilder } from '../../domain/bundle-coverage';
import { isDeploymentId } from '../../domain/deployment-id';
import { BUNDLE_LIMITS as L, newCounter } from '../../domain/investigation-bounds';
import { invalid } from '../../domain/read-rules/read-rule-error';
import { isUuid } from '../../domain/read-rules/uuid';
import { requireAccount } from '../../http/account-auth';
import { fail } from '../../core/api-error';
import type { AppEnv } from '../../http/app-env';
import type { Deps } from '../../core/deps';
import {
  bearerSecurity,
  errorResponses,
  jsonContent,
  orNull,
  UuidParam,
} from '../../http/openapi-shared';
import { DEPLOYMENT_ID_FACETS, UUID_FACETS, requiredKey } from '../../http/query-keys';
import { readQuery } from '../../http/read-query';
import { strictQuery } from '../../http/strict-query';
import type { DeploymentRecord } from '../../core/store/state/deployments';
import type { OccurrenceRecord } from '../../core/store/telemetry/occurrences';
import { subject } from '../../views/investigation-views';
import { iso } from '../../views/telemetry-views';
import { deploymentView } from '../deployments/deployments';
import { readableIssue } from '../issues/issue-access';
import { DeploymentSchema, bundleHead, bundleTail } from './investigation-schema';
import { bundle, subjectSection } from './investigation-sections';

/** Less time than this after a deployment finished proves nothing when nothing recurred. */
export const MIN_OBSERVATION_MS = 60 * 60 * 1000;

export const VERDICTS = ['recurred', 'not_recurred_yet', 'inconclusive'] as const;
export type Verdict = (typeof VERDICTS)[number];

export const REASON_CODES = [
  'deployment_failed',
  'environment_mismatch',
  'service_mismatch',
  'baseline_after_deployment',
  'not_enough_time',
] as const;
type ReasonCode = (typeof REASON_CODES)[number];
type Reason = { code: ReasonCode; message: string };

const Query = readQuery(
  {
    baseline_occurrence_id: requiredKey(
      'Required: an occurrence of this issue (UUID) from before the fix.',
      UUID_FACETS,
    ),
    candidate_deployment_id: requiredKey(
      "Required: a deployment of the issue's project expected to fix it.",
      DEPLOYMENT_ID_FACETS,
    ),
  },
  (q) => parseQuery(q),
);

const CorrectionVerificationSchema = z
  .object({
    ...bundleHead,
    baseline: z.object({
      occurrence_id: z.string(),
      occurred_at: z.string(),
      release: z.string(),
      environment: z.string(),
      service_name: z.string(),
    }),
    deployment: DeploymentSchema,
    observation: z.object({
      from: z.string().openapi({ description: 'The deployment’s `finished_at` (exclusive).' }),
      until: z.string().openapi({ description: 'The request time (inclusive).' }),
      observed_seconds: z.number().int(),
      minimum_observation_seconds: z.number().int(),
    }),
    occurrences: z
      .object({
        before: z.number().int(),
        during: z.number().int(),
        after: z.number().int(),
        after_on_deployed_release: z.number().int(),
      })
      .openapi({
        description:
          "Occurrences in the baseline's environment and service: `before` from the baseline (inclusive) to the deployment start, `during` from its start to its finish (inclusive), `after` later than the finish.",
      }),
    first_recurrence: orNull(
      z.object({ occurrence_id: z.string(), occurred_at: z.string(), release: z.string() }),
    ),
    recurrence_releases: z.array(
      z.object({
        release: z.string(),
        occurrences: z.number().int(),
        is_deployed_release: z.boolean(),
      }),
    ),
    verdict: z.enum(VERDICTS),
    reasons: z.array(z.object({ code: z.enum(REASON_CODES), message: z.string() })),
    ...bundleTail,
  })
  .openapi('CorrectionVerification');

const route = createRoute({
  method: 'get',
  path: '/api/telemetry/issues/{issue_id}/correction-verification',
  tags: ['investigations'],
  summary: 'Did the issue recur after a deployment?',
  description:
    'Counts the occurrences of the issue in the baseline occurrence’s environment and service before, during and after the candidate deployment, and gives a `verdict`: ' +
    '`inconclusive` when the deployment failed, is for another environment or service, or finished before the baseline (each named in `reasons`); otherwise `recurred` when an occurrence is later than `finished_at`; ' +
    `otherwise \`inconclusive\` with \`not_enough_time\` while less than ${MIN_OBSERVATION_MS / 60000} minutes have passed since it finished, and \`not_recurred_yet\` after that. ` +
    'Unknown or unreadable issues, an occurrence of another issue and a deployment of another project are `404`.',
  security: bearerSecurity,
  request: { params: z.object({ issue_id: UuidParam('issue_id') }), query: Query },
  responses: {
    200: jsonContent(CorrectionVerificationSchema, 'The verification.'),
    ...errorResponses(400, 401, 404, 422),
  },
});

function parseQuery(q: Record<string, string | undefined>) {
  const baseline = q.baseline_occurrence_id;
  const candidate = q.candidate_deployment_id;
  if (baseline === undefined) throw invalid('baseline_occurrence_id is required');
  if (candidate === undefined) throw invalid('candidate_deployment_id is required');
  if (!isUuid(baseline)) throw invalid('baseline_occurrence_id must be a UUID');
  if (!isDeploymentId(candidate))
    throw invalid('candidate_deployment_id must be 1 to 128 letters, digits, ".", "_", "~" or "-"');
  return { baselineId: baseline.toLowerCase(), deploymentId: candidate };
}

/** The verdict rules, in order: what makes the comparison meaningless first. */
export function verdictOf(
  baseline: OccurrenceRecord,
  d: DeploymentRecord,
  after: number,
  now: number,
): { verdict: Verdict; reasons: Reason[] } {
  const reasons: Reason[] = [];
  if (d.status === 'failed')
    reasons.push({ code: 'deployment_failed', message: 'the deployment failed' });
  if (d.environment !== baseline.environment)
    reasons.push({
      code: 'environment_mismatch',
      message: 'the deployment is for another environment than the baseline occurrence',
    });
  if (d.serviceName !== baseline.serviceName)
    reasons.push({
      code: 'service_mismatch',
      message: 'the deployment is for another service than the baseline occurrence',
    });
  if (baseline.occurredAt > d.finishedAt)
    reasons.push({
      code: 'baseline_after_deployment',
      message: 'the baseline occurrence happened after the deployment finished',
    });
  if (reasons.length > 0) return { verdict: 'inconclusive', reasons };
  if (after > 0) return { verdict: 'recurred', reasons };
  if (now - d.finishedAt < MIN_OBSERVATION_MS)
    return {
      verdict: 'inconclusive',
      reasons: [
        { code: 'not_enough_time', message: 'not enough time has passed since the deployment' },
      ],
    };
  return { verdict: 'not_recurred_yet', reasons };
}

export function registerCorrectionVerificationRoute(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  const auth = requireAccount(deps, { session: false });
  app.openapi({ ...route, middleware: [auth, strictQuery(Query)] as const }, async (c) => {
    const { baselineId, deploymentId } = c.req.valid('query');
    const { issue } = await readableIssue(
      deps,
      c.get('principal').accountId,
      c.req.param('issue_id'),
    );
    const baseline = await deps.store.investigations.occurrence(issue.id, baselineId);
    if (baseline === null) throw fail.notFound('occurrence not found');
    const d = await deps.store.deployments.get(issue.projectId, deploymentId);
    if (d === null) throw fail.notFound('deployment not found');
    const now = deps.now();

    const window = (from: number, to: number) =>
      deps.store.investigations.occurrenceWindow({
        issueId: issue.id,
        environment: baseline.environment,
        serviceName: baseline.serviceName,
        from,
        to: Math.max(from, to),
      });
    const before = await window(baseline.occurredAt, d.startedAt);
    const during = await window(d.startedAt, d.finishedAt + 1);
    const after = await window(d.finishedAt + 1, now + 1);
    const onDeployed = after.releases.find((r) => r.release === d.release)?.occurrences ?? 0;
    const { verdict, reasons } = verdictOf(baseline, d, after.count, now);

    const cov = new CoverageBuilder();
    const cut = newCounter();
    const subj = subject(
      'issue',
      {
        id: issue.id,
        project_id: issue.projectId,
        name: issue.title,
        status: issue.status,
        occurred_at: iso(baseline.occurredAt),
        service_name: baseline.serviceName,
        environment: baseline.environment,
        release: baseline.release,
      },
      cut,
    );
    subjectSection(cov, cut);
    cov.add('occurrences', before.count + during.count + after.count);
    const releases = after.releases.slice(0, L.releases);
    cov.add('recurrence_releases', releases.length, {
      limit: L.releases,
      more: after.releases.length - releases.length,
    });

    const body = bundle(
      subj,
      {
        baseline: {
          occurrence_id: baseline.id,
          occurred_at: iso(baseline.occurredAt),
          release: baseline.release,
          environment: baseline.environment,
          service_name: baseline.serviceName,
        },
        deployment: deploymentView(d),
        observation: {
          from: iso(d.finishedAt),
          until: iso(now),
          observed_seconds: Math.max(0, Math.floor((now - d.finishedAt) / 1000)),
          minimum_observation_seconds: MIN_OBSERVATION_MS / 1000,
        },
        occurrences: {
          before: before.count,
          during: during.count,
          after: after.count,
          after_on_deployed_release: onDeployed,
        },
        first_recurrence: after.first
          ? {
              occurrence_id: after.first.id,
              occurred_at: iso(after.first.occurredAt),
              release: after.first.release,
            }
          : null,
        recurrence_releases: releases.map((r) => ({
          ...r,
          is_deployed_release: r.release === d.release,
        })),
        verdict,
        reasons,
      },
      cov,
      [
        {
          code: 'investigate_issue',
          target: 'issue_investigation',
          path: `/api/telemetry/issues/${issue.id}/investigation?occurrence_id=${after.first?.id ?? baseline.id}`,
        },
      ],
    );
    return c.json(body, 200);
  });
}
