import { refuseOutsideScope } from '../../auth/delegated-scope';
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { CoverageBuilder } from '../../domain/bundle-coverage';
import { BUNDLE_LIMITS as L, newCounter } from '../../domain/investigation-bounds';
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
import { boundedAction, neighbourAction, subject } from '../../views/investigation-views';
import { iso } from '../../views/telemetry-views';
import {
  BoundedActionSchema,
  BoundedTraceSchema,
  NeighbourActionSchema,
  bundleHead,
  bundleTail,
} from './investigation-schema';
import { bundle, subjectSection, traceSection, tracePath } from './investigation-sections';

/** Neighbouring actions are looked for this long before and after the action. */
export const SESSION_WINDOW_MS = 24 * 60 * 60 * 1000;

const ActionInvestigationSchema = z
  .object({
    ...bundleHead,
    action: BoundedActionSchema,
    trace: orNull(BoundedTraceSchema),
    session: z.object({
      before: z.array(NeighbourActionSchema),
      after: z.array(NeighbourActionSchema),
    }),
    ...bundleTail,
  })
  .openapi('ActionInvestigation');

const route = createRoute({
  method: 'get',
  path: '/api/telemetry/actions/{action_id}/investigation',
  tags: ['investigations'],
  summary: 'Bounded evidence bundle of one product action',
  description: `The action as the action list returns it (properties bounded), the summary of its trace when it carries one, and up to ${L.session_neighbours} actions of the same session on each side within ${SESSION_WINDOW_MS / 3_600_000} hours (name, kind, time, trace id only: no distinct or session ids beyond the action's own). No query keys. Unknown and unreadable actions are \`404\`.`,
  security: bearerSecurity,
  request: {
    params: z.object({ action_id: UuidParam('action_id') }),
    query: z.object({}).strict(),
  },
  responses: {
    200: jsonContent(ActionInvestigationSchema, 'The bundle.'),
    ...errorResponses(400, 401, 404, 422),
  },
});

export function registerActionInvestigationRoute(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  const auth = requireAccount(deps, { session: false });
  app.openapi(
    { ...route, middleware: [auth, strictQuery(route.request.query)] as const },
    async (c) => {
      const actionId = readPathUuid(c.req.param('action_id'), 'action_id');
      const { accountId } = c.get('principal');
      const readable = [...(await readableProjectIds(deps, accountId))];
      const action = await deps.store.investigations.action(readable, actionId);
      if (!action) {
        await refuseOutsideScope(deps.store.projects, accountId, (ids) =>
          deps.store.investigations.action(ids, actionId),
        );
        throw fail.notFound('action not found');
      }

      const cov = new CoverageBuilder();
      const subjectCut = newCounter();
      const subj = subject(
        'action',
        {
          id: action.id,
          project_id: action.projectId,
          name: action.name,
          occurred_at: iso(action.occurredAt),
          service_name: action.service_name,
          environment: action.environment,
          release: action.release,
        },
        subjectCut,
      );
      subjectSection(cov, subjectCut);
      const actionCut = newCounter();
      const actionView = boundedAction(action, actionCut);
      cov.add('action', 1, { cut: actionCut });

      const trace =
        action.traceId === null
          ? (cov.unavailable('trace', 'the action has no trace id'), null)
          : (
              await traceSection(
                deps,
                { traceId: action.traceId, projectIds: readable, release: null, environment: null },
                cov,
              )
            ).trace;

      let session = {
        before: [] as ReturnType<typeof neighbourAction>[],
        after: [] as ReturnType<typeof neighbourAction>[],
      };
      if (action.sessionId === null) {
        cov.unavailable('session', 'the action has no session id');
      } else {
        // One more on each side says whether any were left out.
        const n = await deps.store.investigations.sessionNeighbours(
          action,
          SESSION_WINDOW_MS,
          L.session_neighbours + 1,
        );
        const cut = newCounter();
        const before = n.before.slice(Math.max(0, n.before.length - L.session_neighbours));
        const after = n.after.slice(0, L.session_neighbours);
        session = {
          before: before.map((a) => neighbourAction(a, cut)),
          after: after.map((a) => neighbourAction(a, cut)),
        };
        cov.add('session', before.length + after.length, {
          limit: L.session_neighbours * 2,
          more: n.before.length > before.length || n.after.length > after.length,
          cut,
        });
      }
      const hints = action.traceId
        ? [
            {
              code: 'inspect_trace',
              target: 'trace_investigation',
              path: tracePath(action.traceId),
            },
          ]
        : [];
      return c.json(bundle(subj, { action: actionView, trace, session }, cov, hints), 200);
    },
  );
}
