import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { CoverageBuilder } from '../../domain/bundle-coverage';
import { BUNDLE_LIMITS as L, clip, newCounter } from '../../domain/investigation-bounds';
import { exactFilter } from '../../domain/read-rules/exact-filter';
import { invalid } from '../../domain/read-rules/read-rule-error';
import { parseVersionOne } from '../../domain/read-rules/series-window';
import { isUuid } from '../../domain/read-rules/uuid';
import { requireAccount } from '../../http/account-auth';
import { fail } from '../../core/api-error';
import type { AppEnv } from '../../http/app-env';
import type { Deps } from '../../core/deps';
import { bearerSecurity, errorResponses, jsonContent, orNull } from '../../http/openapi-shared';
import { EXACT_FACETS, UUID_FACETS, enumFacets, key, requiredKey } from '../../http/query-keys';
import { readQuery } from '../../http/read-query';
import { strictQuery } from '../../http/strict-query';
import type { ReleaseRow } from '../../core/store/telemetry/releases';
import { errorBasisPoints, releaseView } from '../../views/release-view';
import { subject } from '../../views/investigation-views';
import { iso } from '../../views/telemetry-views';
import { DeploymentSchema, ReleaseRowSchema, bundleHead, bundleTail } from './investigation-schema';
import { bundle, deploymentsSection, subjectSection } from './investigation-sections';

/** Release rows read to find the previous release of one environment and service. */
const PREVIOUS_SCAN = 200;

const Query = readQuery(
  {
    project_id: requiredKey('Required: one project (UUID).', UUID_FACETS),
    release: requiredKey('Required: the exact release.', EXACT_FACETS),
    environment: key('Exact environment.', EXACT_FACETS),
    service_name: key('Exact service name.', EXACT_FACETS),
    response_version: key('`1` only.', enumFacets(['1'])),
  },
  (q) => {
    if (!isUuid(q.project_id)) throw invalid('project_id must be a UUID');
    const release = exactFilter(q, 'release');
    if (release === null) throw invalid('release is required');
    const environment = exactFilter(q, 'environment');
    const serviceName = exactFilter(q, 'service_name');
    parseVersionOne(q.response_version);
    return { projectId: q.project_id.toLowerCase(), release, environment, serviceName };
  },
);

const Comparison = z.object({
  release: z.string(),
  first_seen_at: z.string(),
  issue_count: z.number().int(),
  trace_count: z.number().int(),
  error_trace_count: z.number().int(),
  error_rate_basis_points: z.number().int(),
  error_rate_change_basis_points: z.number().int().openapi({
    description: 'This release’s error rate minus the previous one’s.',
  }),
});

const ReleaseInvestigationSchema = z
  .object({
    ...bundleHead,
    rows: z.array(ReleaseRowSchema),
    error_traces: z.object({
      trace_count: z.number().int(),
      error_trace_count: z.number().int(),
      error_rate_basis_points: z.number().int(),
    }),
    top_issues: z.array(
      z.object({
        issue_id: z.string(),
        title: z.string(),
        status: z.string(),
        occurrences: z.number().int(),
        last_seen_at: z.string(),
      }),
    ),
    deployments: z.array(DeploymentSchema),
    previous_release: orNull(Comparison),
    ...bundleTail,
  })
  .openapi('ReleaseInvestigation');

const route = createRoute({
  method: 'get',
  path: '/api/telemetry/releases/investigation',
  tags: ['investigations'],
  summary: 'Bounded evidence bundle of one release',
  description:
    'The release rows of the project and release (narrowed by `environment` and `service_name`), their error-trace share, the issues with the most occurrences in the release, its deployments, and, when one environment and service match, the previous release of that environment and service (the row first seen last before this one) compared with it. ' +
    '`project_id` and `release` are required; an unreadable project or a release without rows is `404`.',
  security: bearerSecurity,
  request: { query: Query },
  responses: {
    200: jsonContent(ReleaseInvestigationSchema, 'The bundle.'),
    ...errorResponses(401, 404, 422),
  },
});

async function previousRelease(deps: Deps, row: ReleaseRow) {
  const { rows } = await deps.store.investigations.releaseRows({
    projectId: row.projectId,
    release: null,
    environment: row.environment,
    serviceName: row.serviceName,
    from: null,
    to: null,
    limit: PREVIOUS_SCAN,
  });
  let prev: ReleaseRow | null = null;
  for (const r of rows)
    if (r.release !== row.release && r.firstSeenAt < row.firstSeenAt)
      if (prev === null || r.firstSeenAt > prev.firstSeenAt) prev = r;
  return prev;
}

export function registerReleaseInvestigationRoute(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  const auth = requireAccount(deps, { session: false });
  app.openapi({ ...route, middleware: [auth, strictQuery(Query)] as const }, async (c) => {
    const { projectId, release, environment, serviceName } = c.req.valid('query');
    if (!(await deps.store.projects.readable(c.get('principal').accountId, projectId)))
      throw fail.notFound('release not found');
    const rel = await deps.store.investigations.releaseRows({
      projectId,
      release,
      environment,
      serviceName,
      from: null,
      to: null,
      limit: L.releases,
    });
    const [only] = rel.rows;
    if (only === undefined) throw fail.notFound('release not found');

    const cov = new CoverageBuilder();
    const cut = newCounter();
    const single = rel.total === 1 ? only : null;
    const traces = rel.rows.reduce((n, r) => n + r.traceCount, 0);
    const errorTraces = rel.rows.reduce((n, r) => n + r.errorTraceCount, 0);
    const rate = errorBasisPoints(traces, errorTraces);
    const subj = subject(
      'release',
      {
        id: release,
        project_id: projectId,
        name: release,
        status:
          traces === 0 ? 'unknown' : errorTraces > 0 ? 'errors_observed' : 'no_errors_observed',
        occurred_at: iso(Math.min(...rel.rows.map((r) => r.firstSeenAt))),
        service_name: single?.serviceName ?? serviceName,
        environment: single?.environment ?? environment,
        release,
      },
      cut,
    );
    subjectSection(cov, cut);
    cov.add('rows', rel.rows.length, { limit: L.releases, more: rel.total - rel.rows.length });

    const top = await deps.store.investigations.releaseIssues(
      { projectId, release, environment, serviceName },
      L.issues,
    );
    const issueCut = newCounter();
    const topIssues = top.issues.map((i) => ({
      issue_id: i.issueId,
      title: clip(i.title, L.line_chars, issueCut),
      status: i.status,
      occurrences: i.occurrences,
      last_seen_at: iso(i.lastSeenAt),
    }));
    cov.add('top_issues', topIssues.length, {
      limit: L.issues,
      more: top.total - topIssues.length,
      cut: issueCut,
    });

    const deployments = await deploymentsSection(
      deps,
      { projectId, release, environment, serviceName, finishedFrom: null, finishedTo: null },
      cov,
      'no deployment is recorded for this release',
    );

    let previous = null;
    if (single === null) {
      cov.unavailable(
        'previous_release',
        'several environments or services match; send environment and service_name',
      );
    } else {
      const prev = await previousRelease(deps, single);
      if (prev === null) {
        cov.unavailable('previous_release', 'no earlier release of this environment and service');
      } else {
        const prevRate = errorBasisPoints(prev.traceCount, prev.errorTraceCount);
        previous = {
          release: prev.release,
          first_seen_at: iso(prev.firstSeenAt),
          issue_count: prev.issueCount,
          trace_count: prev.traceCount,
          error_trace_count: prev.errorTraceCount,
          error_rate_basis_points: prevRate,
          error_rate_change_basis_points: rate - prevRate,
        };
        cov.add('previous_release', 1);
      }
    }
    return c.json(
      bundle(
        subj,
        {
          rows: rel.rows.map(releaseView),
          error_traces: {
            trace_count: traces,
            error_trace_count: errorTraces,
            error_rate_basis_points: rate,
          },
          top_issues: topIssues,
          deployments,
          previous_release: previous,
        },
        cov,
        topIssues.slice(0, 1).map((i) => ({
          code: 'investigate_issue',
          target: 'issue_investigation',
          path: `/api/telemetry/issues/${i.issue_id}/investigation?selection=recommended`,
        })),
      ),
      200,
    );
  });
}
