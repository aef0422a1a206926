import { refuseOutsideScope } from '../../auth/delegated-scope';
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { CoverageBuilder } from '../../domain/bundle-coverage';
import { newCounter } from '../../domain/investigation-bounds';
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
import { readPathUuid } from '../../http/path-params';
import { readableProjectIds } from '../../http/readable-projects';
import { strictQuery } from '../../http/strict-query';
import { boundedLog, subject } from '../../views/investigation-views';
import { iso } from '../../views/telemetry-views';
import {
  BoundedLogSchema,
  BoundedTraceSchema,
  DeploymentSchema,
  TraceIssueSchema,
  bundleHead,
  bundleTail,
} from './investigation-schema';
import {
  bundle,
  deploymentsSection,
  subjectSection,
  traceIssuesSection,
  traceSection,
  tracePath,
} from './investigation-sections';

const LogInvestigationSchema = z
  .object({
    ...bundleHead,
    log: BoundedLogSchema,
    trace: orNull(BoundedTraceSchema),
    issues: z.array(TraceIssueSchema),
    deployments: z.array(DeploymentSchema),
    ...bundleTail,
  })
  .openapi('LogInvestigation');

const route = createRoute({
  method: 'get',
  path: '/api/logs/{log_id}/investigation',
  tags: ['investigations'],
  summary: 'Bounded evidence bundle of one log',
  description:
    'The log (message and attributes bounded), the summary of its trace when it carries one, the issues whose occurrences carry that exact trace id, and the deployments of its project, release, environment and service. No query keys. Unknown and unreadable logs are `404`.',
  security: bearerSecurity,
  request: { params: z.object({ log_id: UuidParam('log_id') }), query: z.object({}).strict() },
  responses: {
    200: jsonContent(LogInvestigationSchema, 'The bundle.'),
    ...errorResponses(400, 401, 404, 422),
  },
});

export function registerLogInvestigationRoute(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  const auth = requireAccount(deps, { session: false });
  app.openapi(
    { ...route, middleware: [auth, strictQuery(route.request.query)] as const },
    async (c) => {
      const logId = readPathUuid(c.req.param('log_id'), 'log_id');
      const { accountId } = c.get('principal');
      const readable = [...(await readableProjectIds(deps, accountId))];
      const log = await deps.store.logs.byId(readable, logId);
      if (!log) {
        await refuseOutsideScope(deps.store.projects, accountId, (ids) =>
          deps.store.logs.byId(ids, logId),
        );
        throw fail.notFound('log not found');
      }

      const cov = new CoverageBuilder();
      const subjectCut = newCounter();
      const subj = subject(
        'log',
        {
          id: log.id,
          project_id: log.projectId,
          name: log.source,
          status: log.rule?.ignored ? 'ignored' : 'active',
          occurred_at: iso(log.occurredAt),
          service_name: log.service_name,
          environment: log.environment,
          release: log.release,
        },
        subjectCut,
      );
      subjectSection(cov, subjectCut);
      const logCut = newCounter();
      const logView = boundedLog(log, logCut);
      cov.add('log', 1, { cut: logCut });

      let trace = null;
      let issues: Awaited<ReturnType<typeof traceIssuesSection>> = [];
      if (log.traceId === null) {
        cov.unavailable('trace', 'the log has no trace id');
        cov.unavailable('issues', 'the log has no trace id');
      } else {
        const scope = {
          traceId: log.traceId,
          projectIds: readable,
          release: null,
          environment: null,
        };
        trace = (await traceSection(deps, scope, cov)).trace;
        issues = await traceIssuesSection(deps, scope, cov);
      }
      const deployments = await deploymentsSection(
        deps,
        {
          projectId: log.projectId,
          release: log.release,
          environment: log.environment,
          serviceName: log.service_name,
          finishedFrom: null,
          finishedTo: null,
        },
        cov,
        'no deployment is recorded for this project, release, environment and service',
      );
      const hints = log.traceId
        ? [{ code: 'inspect_trace', target: 'trace_investigation', path: tracePath(log.traceId) }]
        : [];
      return c.json(bundle(subj, { log: logView, trace, issues, deployments }, cov, hints), 200);
    },
  );
}
