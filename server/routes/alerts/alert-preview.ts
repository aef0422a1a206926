import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { parseCondition } from '../../alerts/alert-conditions';
import { PREVIEW_MAX_POINTS, previewRule } from '../../alerts/alert-preview';
import type { Deps } from '../../core/deps';
import { ALERT_OPS } from '../../core/store/state/alerts';
import { requireAccount } from '../../http/account-auth';
import type { AppEnv } from '../../http/app-env';
import { jsonBody } from '../../http/json-body';
import {
  bearerOrSessionSecurity,
  errorResponses,
  jsonContent,
  orNull,
} from '../../http/openapi-shared';
import { strictQuery } from '../../http/strict-query';
import { iso } from '../../views/telemetry-views';
import { ALERT_AUTH, projectFor } from './alert-access';
import { PreviewBody } from './alert-schema';

const time = z.string().openapi({ format: 'date-time' });

const PreviewSchema = z
  .object({
    points: z.array(
      z.object({
        t: time.openapi({ description: 'Start of the bucket.' }),
        value: z
          .number()
          .nullable()
          .openapi({ description: 'Null: nothing to measure (no samples, no traces).' }),
      }),
    ),
    threshold: z.number(),
    op: z.enum(ALERT_OPS),
    would_fire: z.array(
      z.object({
        start: time,
        end: orNull(time).openapi({ description: 'Null: still firing at the end.' }),
      }),
    ),
    deployments: z.array(
      z.object({ release: z.string(), deployed_at: time, environment: z.string() }),
    ),
    interval_minutes: z
      .number()
      .openapi({ description: 'The bucket: the rule’s window, at least 5 minutes.' }),
  })
  .openapi('AlertPreview');

const preview = createRoute({
  method: 'post',
  path: '/api/alerts/preview',
  tags: ['alerts'],
  summary: 'Preview a rule over the last 24 hours',
  description: `A rule without name and notify: \`{project_id, kind, condition, resolve_threshold?}\`, checked like a created rule. Answers the rule's value per bucket (its window, at least 5 minutes: at most ${PREVIEW_MAX_POINTS} points) over the last 24 hours on the service clock, where the evaluator would have fired and resolved (same hysteresis), and the project's deployments in that time. Members may preview (it reads, it stores nothing).`,
  security: bearerOrSessionSecurity,
  request: {
    query: z.object({}).strict(),
    body: { required: true, content: { 'application/json': { schema: PreviewBody } } },
  },
  responses: {
    200: jsonContent(PreviewSchema, 'The preview.'),
    ...errorResponses(400, 401, 404, 413, 415, 422),
  },
});

export function registerAlertPreviewRoute(app: OpenAPIHono<AppEnv>, deps: Deps): void {
  const auth = requireAccount(deps, ALERT_AUTH);
  app.openapi(
    { ...preview, middleware: [auth, strictQuery(preview.request.query), jsonBody()] as const },
    async (c) => {
      const body = c.req.valid('json');
      const project = await projectFor(deps, c.get('principal').accountId, body.project_id, false);
      const rule = parseCondition(body.kind, body.condition);
      const p = await previewRule(
        deps.store,
        rule,
        project.id,
        body.resolve_threshold ?? null,
        deps.now(),
        deps.config.alerts.everySeconds / 60,
      );
      return c.json(
        {
          points: p.points.map((x) => ({ t: iso(x.t), value: x.value })),
          threshold: p.threshold,
          op: p.op,
          would_fire: p.wouldFire.map((w) => ({
            start: iso(w.start),
            end: w.end === null ? null : iso(w.end),
          })),
          deployments: p.deployments.map((d) => ({
            release: d.release,
            deployed_at: iso(d.deployedAt),
            environment: d.environment,
          })),
          interval_minutes: p.intervalMinutes,
        },
        200,
      );
    },
  );
}
