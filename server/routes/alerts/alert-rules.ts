import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { parseCondition } from '../../alerts/alert-conditions';
import { fail } from '../../core/api-error';
import type { Deps } from '../../core/deps';
import {
  ALERT_KINDS,
  type AlertRuleChange,
  type AlertRuleRecord,
} from '../../core/store/state/alerts';
import { parseLimit } from '../../domain/read-rules/limit';
import { parseRfc3339 } from '../../domain/read-rules/time-range';
import { newId } from '../../domain/secrets';
import { requireAccount } from '../../http/account-auth';
import type { AppEnv } from '../../http/app-env';
import { withIdempotency } from '../../http/idempotency';
import { jsonBody } from '../../http/json-body';
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
import {
  ALERT_AUTH,
  IdempotencyHeader,
  checkNotify,
  normalizeNotify,
  projectFor,
} from './alert-access';
import {
  CURSOR_FACETS,
  RuleBody,
  RulePatchBody,
  RuleSchema,
  decodeCursor,
  uuidKey,
  page,
  ruleView,
} from './alert-schema';

export const RULE_LIMIT = { fallback: 50, max: 200 };

const RulesQuery = readQuery(
  {
    project_id: requiredKey('Required: one project (UUID) you can read.', UUID_FACETS),
    kind: z.enum(ALERT_KINDS).optional().openapi({ description: 'Only rules of this kind.' }),
    cursor: key('`next_cursor` of the previous page.', CURSOR_FACETS),
    limit: key(
      `Rules per page: default ${RULE_LIMIT.fallback}, maximum ${RULE_LIMIT.max} (a larger value is replaced by it).`,
      integerFacets({ minimum: 1, default: RULE_LIMIT.fallback }),
    ),
  },
  (q) => ({
    projectId: uuidKey('project_id', q.project_id),
    kind: q.kind ?? null,
    after: decodeCursor(q.cursor),
    limit: parseLimit(q.limit, RULE_LIMIT),
  }),
);

const RulePathParams = z.object({ rule_id: UuidParam('rule_id') });

const listRules = createRoute({
  method: 'get',
  path: '/api/alerts/rules',
  tags: ['alerts'],
  summary: 'Alert rules of a project',
  description:
    'Newest first. Members of the project’s organization read; an unreadable project is `404`. Continue with `cursor` = `next_cursor` until it is null.',
  security: bearerOrSessionSecurity,
  request: { query: RulesQuery },
  responses: {
    200: jsonContent(
      z
        .object({ rules: z.array(RuleSchema), next_cursor: orNull(z.string()) })
        .openapi('AlertRulePage'),
      'A page of rules.',
    ),
    ...errorResponses(401, 404, 422),
  },
});

const createRule = createRoute({
  method: 'post',
  path: '/api/alerts/rules',
  tags: ['alerts'],
  summary: 'Create an alert rule',
  description:
    'Owners and admins of the project’s organization (a member is `403 role_forbidden`). `condition` is checked by `kind` (docs/alerts.md); a bad field is `422 validation_failed` naming it. Notify targets must belong to the organization. Optional `Idempotency-Key`: the same key and body replay the created rule, another body is `409`.',
  security: bearerOrSessionSecurity,
  request: {
    query: z.object({}).strict(),
    headers: IdempotencyHeader,
    body: { required: true, content: { 'application/json': { schema: RuleBody } } },
  },
  responses: {
    200: jsonContent(RuleSchema, 'The created rule.'),
    ...errorResponses(400, 401, 403, 404, 409, 413, 415, 422),
  },
});

const getRule = createRoute({
  method: 'get',
  path: '/api/alerts/rules/{rule_id}',
  tags: ['alerts'],
  summary: 'One alert rule',
  security: bearerOrSessionSecurity,
  request: { params: RulePathParams, query: z.object({}).strict() },
  responses: { 200: jsonContent(RuleSchema, 'The rule.'), ...errorResponses(400, 401, 404, 422) },
});

const patchRule = createRoute({
  method: 'patch',
  path: '/api/alerts/rules/{rule_id}',
  tags: ['alerts'],
  summary: 'Change an alert rule',
  description:
    'Any of `name`, `condition` (checked against the rule’s kind; the kind cannot change), `notify`, `enabled`, `resolve_threshold`, `muted_until` (RFC3339 or null). Owners and admins only (`403 role_forbidden`). A changed condition keeps the open incident; it resolves once the new condition is past the resolve threshold.',
  security: bearerOrSessionSecurity,
  request: {
    params: RulePathParams,
    query: z.object({}).strict(),
    body: { required: true, content: { 'application/json': { schema: RulePatchBody } } },
  },
  responses: {
    200: jsonContent(RuleSchema, 'The changed rule.'),
    ...errorResponses(400, 401, 403, 404, 413, 415, 422),
  },
});

const deleteRule = createRoute({
  method: 'delete',
  path: '/api/alerts/rules/{rule_id}',
  tags: ['alerts'],
  summary: 'Delete an alert rule',
  description:
    'Owners and admins only. Its incidents and notifications stay as history; pending deliveries are still sent.',
  security: bearerOrSessionSecurity,
  request: { params: RulePathParams, query: z.object({}).strict() },
  responses: {
    200: jsonContent(
      z.object({ deleted: z.literal(true) }).openapi('AlertRuleDeleted'),
      'Deleted.',
    ),
    ...errorResponses(400, 401, 403, 404, 422),
  },
});

/** The rule if the account reads its project (else `404`), with the change role when `change`. */
async function ruleFor(deps: Deps, accountId: string, ruleId: string, change: boolean) {
  const rule = await deps.store.alerts.rule(ruleId);
  if (!rule) throw fail.notFound('alert rule not found');
  const project = await deps.store.projects.readable(accountId, rule.projectId);
  if (!project) throw fail.notFound('alert rule not found');
  if (change) await projectFor(deps, accountId, rule.projectId, true);
  return { rule, project };
}

const mutedUntilOf = (value: string | null | undefined): number | null | undefined => {
  if (value === undefined || value === null) return value;
  const at = parseRfc3339(value);
  if (at === null) throw fail.validation('muted_until must be an RFC3339 timestamp or null');
  return at;
};

export function registerAlertRuleRoutes(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  const auth = requireAccount(deps, ALERT_AUTH);

  app.openapi({ ...listRules, middleware: [auth, strictQuery(RulesQuery)] as const }, async (c) => {
    const q = c.req.valid('query');
    const { accountId } = c.get('principal');
    await projectFor(deps, accountId, q.projectId, false);
    const rows = await deps.store.alerts.rules({
      projectIds: [q.projectId],
      kind: q.kind,
      after: q.after,
      limit: q.limit + 1,
    });
    const p = page(rows, q.limit, (r) => ({ time: r.createdAt, id: r.id }), ruleView);
    return c.json({ rules: p.items, next_cursor: p.next_cursor }, 200);
  });

  app.openapi(
    {
      ...createRule,
      middleware: [auth, strictQuery(createRule.request.query), jsonBody()] as const,
    },
    async (c) => {
      const body = c.req.valid('json');
      const { accountId } = c.get('principal');
      const created = await withIdempotency(
        deps,
        c,
        'POST /api/alerts/rules',
        body,
        async (remember) => {
          const project = await projectFor(deps, accountId, body.project_id, true);
          const { condition } = parseCondition(body.kind, body.condition);
          const notify = normalizeNotify(body.notify);
          await checkNotify(deps, project, notify);
          const now = deps.now();
          const row: AlertRuleRecord = {
            id: newId(),
            projectId: project.id,
            organizationId: project.organizationId,
            name: body.name,
            kind: body.kind,
            condition,
            notify,
            resolveThreshold: body.resolve_threshold ?? null,
            enabled: body.enabled ?? true,
            mutedUntil: null,
            createdBy: accountId,
            createdAt: now,
            updatedAt: now,
            evaluatedThrough: null,
            firing: false,
            lastError: null,
          };
          const view = ruleView(row);
          await deps.store.alerts.createRule(row, remember(view));
          return view;
        },
      );
      return c.json(created, 200);
    },
  );

  app.openapi(
    { ...getRule, middleware: [auth, strictQuery(getRule.request.query)] as const },
    async (c) => {
      const ruleId = readPathUuid(c.req.param('rule_id'), 'rule_id');
      const { rule } = await ruleFor(deps, c.get('principal').accountId, ruleId, false);
      return c.json(ruleView(rule), 200);
    },
  );

  app.openapi(
    {
      ...patchRule,
      middleware: [auth, strictQuery(patchRule.request.query), jsonBody()] as const,
    },
    async (c) => {
      const ruleId = readPathUuid(c.req.param('rule_id'), 'rule_id');
      const body = c.req.valid('json');
      const { rule, project } = await ruleFor(deps, c.get('principal').accountId, ruleId, true);
      const change: AlertRuleChange = { updatedAt: deps.now() };
      if (body.name !== undefined) change.name = body.name;
      if (body.condition !== undefined)
        change.condition = parseCondition(rule.kind, body.condition).condition;
      if (body.notify !== undefined) {
        change.notify = normalizeNotify(body.notify);
        await checkNotify(deps, project, change.notify);
      }
      if (body.enabled !== undefined) change.enabled = body.enabled;
      if (body.resolve_threshold !== undefined) change.resolveThreshold = body.resolve_threshold;
      const muted = mutedUntilOf(body.muted_until);
      if (muted !== undefined) change.mutedUntil = muted;
      if (!(await deps.store.alerts.updateRule(ruleId, change)))
        throw fail.notFound('alert rule not found');
      const updated = await deps.store.alerts.rule(ruleId);
      if (!updated) throw fail.notFound('alert rule not found');
      return c.json(ruleView(updated), 200);
    },
  );

  app.openapi(
    { ...deleteRule, middleware: [auth, strictQuery(deleteRule.request.query)] as const },
    async (c) => {
      const ruleId = readPathUuid(c.req.param('rule_id'), 'rule_id');
      await ruleFor(deps, c.get('principal').accountId, ruleId, true);
      if (!(await deps.store.alerts.deleteRule(ruleId)))
        throw fail.notFound('alert rule not found');
      return c.json({ deleted: true as const }, 200);
    },
  );
}
