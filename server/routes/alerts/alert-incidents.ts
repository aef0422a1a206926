import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { fail } from '../../core/api-error';
import type { Deps } from '../../core/deps';
import { INCIDENT_STATES } from '../../core/store/state/alerts';
import { parseLimit } from '../../domain/read-rules/limit';
import { requireAccount } from '../../http/account-auth';
import { incidentView } from '../../views/alert-incident-view';
import type { AppEnv } from '../../http/app-env';
import {
  bearerOrSessionSecurity,
  errorResponses,
  jsonContent,
  orNull,
  UuidParam,
} from '../../http/openapi-shared';
import { readPathUuid } from '../../http/path-params';
import { UUID_FACETS, integerFacets, key, requiredKey } from '../../http/query-keys';
import { readQuery } from '../../http/read-query';
import { strictQuery } from '../../http/strict-query';
import { ALERT_AUTH, projectFor } from './alert-access';
import { CURSOR_FACETS, IncidentSchema, decodeCursor, page, uuidKey } from './alert-schema';

export const INCIDENT_LIMIT = { fallback: 50, max: 200 };

const IncidentsQuery = readQuery(
  {
    project_id: requiredKey('Required: one project (UUID) you can read.', UUID_FACETS),
    rule_id: key('Only incidents of this rule.', UUID_FACETS),
    state: z
      .enum(INCIDENT_STATES)
      .optional()
      .openapi({ description: 'Only `firing` or only `resolved` incidents.' }),
    cursor: key('`next_cursor` of the previous page.', CURSOR_FACETS),
    limit: key(
      `Incidents per page: default ${INCIDENT_LIMIT.fallback}, maximum ${INCIDENT_LIMIT.max} (a larger value is replaced by it).`,
      integerFacets({ minimum: 1, default: INCIDENT_LIMIT.fallback }),
    ),
  },
  (q) => ({
    projectId: uuidKey('project_id', q.project_id),
    ruleId: uuidKey('rule_id', q.rule_id),
    state: q.state ?? null,
    after: decodeCursor(q.cursor),
    limit: parseLimit(q.limit, INCIDENT_LIMIT),
  }),
);

const listIncidents = createRoute({
  method: 'get',
  path: '/api/alerts/incidents',
  tags: ['alerts'],
  summary: 'Alert history of a project',
  description:
    'Incidents newest first by `started_at`. An incident opens when its rule’s value breaches the threshold and resolves once the value is past the resolve threshold; incidents of deleted rules stay. Continue with `cursor`.',
  security: bearerOrSessionSecurity,
  request: { query: IncidentsQuery },
  responses: {
    200: jsonContent(
      z
        .object({ incidents: z.array(IncidentSchema), next_cursor: orNull(z.string()) })
        .openapi('AlertIncidentPage'),
      'A page of incidents.',
    ),
    ...errorResponses(401, 404, 422),
  },
});

const getIncident = createRoute({
  method: 'get',
  path: '/api/alerts/incidents/{incident_id}',
  tags: ['alerts'],
  summary: 'One alert incident',
  security: bearerOrSessionSecurity,
  request: {
    params: z.object({ incident_id: UuidParam('incident_id') }),
    query: z.object({}).strict(),
  },
  responses: {
    200: jsonContent(IncidentSchema, 'The incident.'),
    ...errorResponses(400, 401, 404, 422),
  },
});

export function registerAlertIncidentRoutes(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  const auth = requireAccount(deps, ALERT_AUTH);

  app.openapi(
    { ...listIncidents, middleware: [auth, strictQuery(IncidentsQuery)] as const },
    async (c) => {
      const q = c.req.valid('query');
      await projectFor(deps, c.get('principal').accountId, q.projectId, false);
      const rows = await deps.store.alerts.incidents({
        projectIds: [q.projectId],
        ruleId: q.ruleId,
        state: q.state,
        after: q.after,
        limit: q.limit + 1,
      });
      const p = page(rows, q.limit, (i) => ({ time: i.startedAt, id: i.id }), incidentView);
      return c.json({ incidents: p.items, next_cursor: p.next_cursor }, 200);
    },
  );

  app.openapi(
    { ...getIncident, middleware: [auth, strictQuery(getIncident.request.query)] as const },
    async (c) => {
      const incidentId = readPathUuid(c.req.param('incident_id'), 'incident_id');
      const incident = await deps.store.alerts.incident(incidentId);
      if (
        !incident ||
        !(await deps.store.projects.readable(c.get('principal').accountId, incident.projectId))
      )
        throw fail.notFound('incident not found');
      return c.json(incidentView(incident), 200);
    },
  );
}
