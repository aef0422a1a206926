import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { CoverageBuilder } from '../../domain/bundle-coverage';
import {
  BUNDLE_LIMITS as L,
  clip,
  newCounter,
  splitStack,
} from '../../domain/investigation-bounds';
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
import { UUID_FACETS, integerFacets, key } from '../../http/query-keys';
import { readQuery } from '../../http/read-query';
import { strictQuery } from '../../http/strict-query';
import type { OccurrencePick } from '../../core/store/telemetry/investigations';
import type { OccurrenceRecord } from '../../core/store/telemetry/occurrences';
import { boundedBreadcrumbs, boundedOccurrence, subject } from '../../views/investigation-views';
import { iso } from '../../views/telemetry-views';
import { readableIssue } from '../issues/issue-access';
import {
  BoundedLogSchema,
  BoundedOccurrenceSchema,
  BoundedTraceSchema,
  DeploymentSchema,
  bundleHead,
  bundleTail,
} from './investigation-schema';
import {
  bundle,
  deploymentsSection,
  subjectSection,
  traceLogsSection,
  traceSection,
  tracePath,
  type Hint,
} from './investigation-sections';

export const SELECTIONS = ['first', 'latest', 'recommended'] as const;
type Selection = (typeof SELECTIONS)[number];
export const INVESTIGATION_MAX_VERSION = 13;

const Query = readQuery(
  {
    response_version: key(
      `1 without a selector (the default there: the latest occurrence); 2 to ${INVESTIGATION_MAX_VERSION} with a selector (default 2 there). From 2 on, no selector means \`recommended\`. Versions 2 to ${INVESTIGATION_MAX_VERSION} give the same shape today. Anything else is \`422\`.`,
      // Digits as written, no leading zero or sign.
      {
        ...integerFacets({ minimum: 1, maximum: INVESTIGATION_MAX_VERSION }),
        pattern: '^[1-9]\\d*$',
      },
    ),
    selection: z.enum(SELECTIONS).optional().openapi({
      description:
        '`first`, `latest` or `recommended` (the latest occurrence having both a trace id and a stack trace; else the latest with a stack trace; else the latest). Never with `occurrence_id`.',
    }),
    occurrence_id: key(
      'An occurrence of this issue (UUID, from the occurrence list). Never with `selection`.',
      UUID_FACETS,
    ),
  },
  (q) => parseIssueSelector(q),
);

const IssueInvestigationSchema = z
  .object({
    ...bundleHead,
    selection: z.object({
      requested: z.enum([...SELECTIONS, 'occurrence_id']).nullable(),
      used: z.enum([...SELECTIONS, 'occurrence_id']),
      rule: z.enum(['trace_and_stack', 'stack_only', 'latest']).nullable().openapi({
        description: 'For `recommended`: which of its three steps found the occurrence.',
      }),
      response_version: z.number().int(),
      occurrence_id: z.string(),
    }),
    issue: z.object({
      id: z.string(),
      project_id: z.string(),
      title: z.string(),
      status: z.string(),
      effective_severity: z.string(),
      occurrence_count: z.number().int(),
      first_seen_at: z.string(),
      last_seen_at: z.string(),
    }),
    occurrence: BoundedOccurrenceSchema,
    stack: orNull(
      z.object({
        header: z.string(),
        frames: z.array(z.string()),
        total_frames: z.number().int(),
      }),
    ),
    breadcrumbs: z.array(z.record(z.string(), z.unknown())),
    trace: orNull(BoundedTraceSchema),
    logs: z.array(BoundedLogSchema),
    deployments: z.array(DeploymentSchema),
    ...bundleTail,
  })
  .openapi('IssueInvestigation');

const route = createRoute({
  method: 'get',
  path: '/api/telemetry/issues/{issue_id}/investigation',
  tags: ['investigations'],
  summary: 'Bounded evidence bundle of one issue occurrence',
  description:
    'The selected occurrence, its stack (first frames), its last breadcrumbs, the summary of its trace, the logs carrying exactly its trace id, and the deployments of its project, release, environment and service. ' +
    'Every section has a documented limit (`limits`); `coverage` says what was cut or unavailable and why. A `200` does not prove the evidence is complete. ' +
    'Unknown and unreadable issues, and an `occurrence_id` that is not an occurrence of the issue, are `404`.',
  security: bearerSecurity,
  request: { params: z.object({ issue_id: UuidParam('issue_id') }), query: Query },
  responses: {
    200: jsonContent(IssueInvestigationSchema, 'The bundle.'),
    ...errorResponses(400, 401, 404, 422),
  },
});

/** The selector and version rules (spec "Versioning"); every refusal is a 422. */
export function parseIssueSelector(q: Record<string, string | undefined>): {
  requested: Selection | 'occurrence_id' | null;
  used: Selection | 'occurrence_id';
  occurrenceId: string | null;
  version: number;
} {
  if (q.selection !== undefined && q.occurrence_id !== undefined)
    throw invalid('send selection or occurrence_id, not both');
  const selection = q.selection === undefined ? null : SELECTIONS.find((s) => s === q.selection);
  if (selection === undefined) throw invalid(`selection must be one of ${SELECTIONS.join(', ')}`);
  if (q.occurrence_id !== undefined && !isUuid(q.occurrence_id))
    throw invalid('occurrence_id must be a UUID');
  const requested = selection ?? (q.occurrence_id !== undefined ? 'occurrence_id' : null);
  let version = requested === null ? 1 : 2;
  if (q.response_version !== undefined) {
    // Digits as written, no leading zero or sign, as the other response_version keys compare.
    if (
      !/^\d{1,3}$/.test(q.response_version) ||
      String(Number(q.response_version)) !== q.response_version
    )
      throw invalid(`response_version must be an integer from 1 to ${INVESTIGATION_MAX_VERSION}`);
    version = Number(q.response_version);
    const min = requested === null ? 1 : 2;
    if (version < min || version > INVESTIGATION_MAX_VERSION)
      throw invalid(
        requested === null
          ? `response_version must be 1 to ${INVESTIGATION_MAX_VERSION}`
          : `response_version must be 2 to ${INVESTIGATION_MAX_VERSION} when a selector is used`,
      );
  }
  const used = requested ?? (version >= 2 ? 'recommended' : 'latest');
  return { requested, used, occurrenceId: q.occurrence_id?.toLowerCase() ?? null, version };
}

const RECOMMENDED: { pick: OccurrencePick; rule: 'trace_and_stack' | 'stack_only' | 'latest' }[] = [
  { pick: 'latest_with_trace_and_stack', rule: 'trace_and_stack' },
  { pick: 'latest_with_stack', rule: 'stack_only' },
  { pick: 'latest', rule: 'latest' },
];

async function selectOccurrence(
  deps: Deps,
  issueId: string,
  sel: ReturnType<typeof parseIssueSelector>,
): Promise<{
  occurrence: OccurrenceRecord | null;
  rule: (typeof RECOMMENDED)[number]['rule'] | null;
}> {
  const inv = deps.store.investigations;
  switch (sel.used) {
    case 'occurrence_id':
      return { occurrence: await inv.occurrence(issueId, sel.occurrenceId ?? ''), rule: null };
    case 'first':
    case 'latest':
      return { occurrence: await inv.pickOccurrence(issueId, sel.used), rule: null };
    case 'recommended':
      for (const step of RECOMMENDED) {
        const occurrence = await inv.pickOccurrence(issueId, step.pick);
        if (occurrence) return { occurrence, rule: step.rule };
      }
      return { occurrence: null, rule: null };
  }
}

export function registerIssueInvestigationRoute(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  const auth = requireAccount(deps, { session: false });
  app.openapi({ ...route, middleware: [auth, strictQuery(Query)] as const }, async (c) => {
    const sel = c.req.valid('query');
    const { accountId } = c.get('principal');
    const { issue } = await readableIssue(deps, accountId, c.req.param('issue_id'));
    const { occurrence: o, rule } = await selectOccurrence(deps, issue.id, sel);
    if (o === null) throw fail.notFound('occurrence not found');
    const readable = (await deps.store.projects.readableBy(accountId)).map((p) => p.id);

    const cov = new CoverageBuilder();
    const subjectCut = newCounter();
    // Version 1 keeps the older status name, as issue version 1 does.
    const status = sel.version === 1 && issue.status === 'archived' ? 'ignored' : issue.status;
    const subj = subject(
      'issue',
      {
        id: issue.id,
        project_id: issue.projectId,
        name: issue.title,
        status,
        occurred_at: iso(o.occurredAt),
        service_name: o.serviceName,
        environment: o.environment,
        release: o.release,
      },
      subjectCut,
    );
    subjectSection(cov, subjectCut);

    const issueCut = newCounter();
    const issueSection = {
      id: issue.id,
      project_id: issue.projectId,
      title: clip(issue.title, L.line_chars, issueCut),
      status,
      effective_severity: issue.ruleSeverity ?? issue.severity,
      occurrence_count: issue.occurrenceCount,
      first_seen_at: iso(issue.firstSeenAt),
      last_seen_at: iso(issue.lastSeenAt),
    };
    cov.add('issue', 1, { cut: issueCut });

    const occCut = newCounter();
    const occurrence = boundedOccurrence(o, occCut);
    cov.add('occurrence', 1, { cut: occCut });

    let stack = null;
    if (o.stackTrace === null || o.stackTrace.trim() === '') {
      cov.unavailable('stack', 'the occurrence has no stack trace');
    } else {
      const cut = newCounter();
      const s = splitStack(o.stackTrace, cut);
      stack = { header: s.header, frames: s.frames, total_frames: s.totalFrames };
      cov.add('stack', s.frames.length, {
        limit: L.stack_frames,
        more: s.totalFrames - s.frames.length,
        cut,
      });
    }

    let breadcrumbs: Record<string, unknown>[] = [];
    if (o.breadcrumbs === null || o.breadcrumbs.length === 0) {
      cov.unavailable('breadcrumbs', 'the occurrence has no breadcrumbs');
    } else {
      const cut = newCounter();
      breadcrumbs = boundedBreadcrumbs(o.breadcrumbs, cut);
      const left = o.breadcrumbs.length - breadcrumbs.length;
      // The SDK's own cut is reported too; how many it dropped is unknown.
      cov.add('breadcrumbs', breadcrumbs.length, {
        limit: L.breadcrumbs,
        more: o.breadcrumbsTruncated ? true : left,
        cut,
      });
    }

    const scope = {
      traceId: o.traceId ?? '',
      projectIds: readable,
      release: null,
      environment: null,
    };
    const trace =
      o.traceId === null
        ? (cov.unavailable('trace', 'the occurrence has no trace id'), null)
        : (await traceSection(deps, scope, cov)).trace;
    const logs = await traceLogsSection(deps, readable, o.traceId, cov, {
      unavailable: 'the occurrence has no trace id',
    });
    const deployments = await deploymentsSection(
      deps,
      {
        projectId: o.projectId,
        release: o.release,
        environment: o.environment,
        serviceName: o.serviceName,
        finishedFrom: null,
        finishedTo: null,
      },
      cov,
      'no deployment is recorded for this project, release, environment and service',
    );

    const hints: Hint[] = [];
    if (o.traceId)
      hints.push({
        code: 'inspect_trace',
        target: 'trace_investigation',
        path: tracePath(o.traceId),
      });
    const [fix] = await deps.store.deployments.matching({
      projectId: o.projectId,
      release: null,
      environment: o.environment,
      serviceName: o.serviceName,
      finishedFrom: o.occurredAt,
      finishedTo: null,
      limit: 1,
    });
    if (fix)
      hints.push({
        code: 'verify_correction',
        target: 'correction_verification',
        path: `/api/telemetry/issues/${issue.id}/correction-verification?baseline_occurrence_id=${o.id}&candidate_deployment_id=${encodeURIComponent(fix.deploymentId)}`,
      });
    hints.push({
      code: 'list_occurrences',
      target: 'issue_occurrences',
      path: `/api/telemetry/issues/${issue.id}/events`,
    });

    const body = bundle(
      subj,
      {
        selection: {
          requested: sel.requested,
          used: sel.used,
          rule,
          response_version: sel.version,
          occurrence_id: o.id,
        },
        issue: issueSection,
        occurrence,
        stack,
        breadcrumbs,
        trace,
        logs,
        deployments,
      },
      cov,
      hints,
    );
    return c.json(body, 200);
  });
}
