import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { canManageTelemetry } from '../../domain/manage-telemetry';
import { SEVERITIES } from '../../domain/severity';
import { requireAccount } from '../../http/account-auth';
import { fail } from '../../core/api-error';
import type { AppEnv } from '../../http/app-env';
import type { Deps } from '../../core/deps';
import { jsonBody } from '../../http/json-body';
import { UuidParam, bearerSecurity, errorResponses, jsonContent } from '../../http/openapi-shared';
import { readPathUuid } from '../../http/path-params';
import { strictQuery } from '../../http/strict-query';
import { logView } from '../../views/telemetry-views';
import { LogSchema } from './log-schema';

const RULE_SEVERITIES = [...SEVERITIES, 'source'] as const;

const LogTriageRuleBody = z
  .object({
    severity: z.enum(RULE_SEVERITIES).openapi({
      description:
        'Severity shown for matching logs; `source` removes the override and shows the captured severity.',
    }),
    ignored: z
      .boolean()
      .openapi({ description: 'True hides matching logs from the default (`active`) list.' }),
  })
  .strict()
  .openapi('LogTriageRule');

const putLogTriageRule = createRoute({
  method: 'put',
  path: '/api/logs/{log_id}/triage-rule',
  tags: ['telemetry'],
  summary: "Set the triage rule of a log's kind",
  description:
    'Sets the rule that matches this log and every current and future log of the same project with ' +
    'the same `source`, `service_name` and message template (the message with numbers, UUIDs, hex ' +
    'values and quoted text masked). Both `severity` and `ignored` are required; the rule replaces ' +
    'any earlier one. `severity: source` with `ignored: false` removes the rule (`rule_applied` ' +
    'false). A rule changes `triage` only, never the captured `severity`/`level`, and deletes no ' +
    'data. Needs the owner or admin role in the project organization (`403 forbidden` otherwise).',
  security: bearerSecurity,
  request: {
    params: z.object({ log_id: UuidParam('log_id') }),
    query: z.object({}).strict(),
    body: { required: true, content: { 'application/json': { schema: LogTriageRuleBody } } },
  },
  responses: {
    200: jsonContent(LogSchema, 'The log with its updated `triage`.'),
    ...errorResponses(400, 401, 403, 404, 413, 415, 422),
  },
});

export function registerLogTriageRoute(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  const auth = requireAccount(deps, { session: false });

  app.openapi(
    {
      ...putLogTriageRule,
      middleware: [auth, strictQuery(putLogTriageRule.request.query), jsonBody()] as const,
    },
    async (c) => {
      const logId = readPathUuid(c.req.param('log_id'), 'log_id');
      const body = c.req.valid('json');
      const { accountId } = c.get('principal');
      const readable = await deps.store.projects.readableBy(accountId);
      const log = await deps.store.logs.byId(
        readable.map((p) => p.id),
        logId,
      );
      if (!log) throw fail.notFound('log not found');
      if (!canManageTelemetry(readable.find((p) => p.id === log.projectId)?.role))
        throw fail.forbidden();

      const severity = body.severity === 'source' ? null : body.severity;
      // A rule that neither overrides nor ignores changes nothing, so it is removed.
      const rule = severity === null && !body.ignored ? null : { severity, ignored: body.ignored };
      await deps.store.logs.setRule({
        projectId: log.projectId,
        logId: log.id,
        rule,
        at: deps.now(),
        by: accountId,
      });
      const updated = await deps.store.logs.byId([log.projectId], log.id);
      if (!updated) throw fail.notFound('log not found');
      return c.json(logView(updated), 200);
    },
  );
}
