import type { OpenAPIHono, z } from '@hono/zod-openapi';
import type { Deps } from '../../core/deps';
import { analyticsFilter, parseAnalyticsRange } from '../../domain/read-rules/analytics-range';
import { requireAccount } from '../../http/account-auth';
import type { AppEnv } from '../../http/app-env';
import { jsonBody } from '../../http/json-body';
import { strictQuery } from '../../http/strict-query';
import { iso } from '../../views/telemetry-views';
import type { analyticsPostRoute } from './analytics-body';

/** The fields of every analytics body that choose what is read (shared analytics rules). */
export type AnalyticsScopeInput = {
  project_id: string;
  since: string;
  until?: string | undefined;
  service_name?: string | undefined;
  release?: string | undefined;
  environment?: string | undefined;
};

/**
 * The one project, the resolved range and the trimmed exact filters of an analytics body,
 * the store query they make, the `query` echo every answer starts with, and whether the
 * account reads the project: an unreadable one reads nothing and answers the same shape with
 * zero counts.
 */
export async function resolveAnalyticsScope(
  deps: Deps,
  accountId: string,
  body: AnalyticsScopeInput,
) {
  const range = parseAnalyticsRange(body, deps.now());
  const serviceName = analyticsFilter('service_name', body.service_name);
  const release = analyticsFilter('release', body.release);
  const environment = analyticsFilter('environment', body.environment);
  const projectId = body.project_id.toLowerCase();
  const readable = await deps.store.projects.readable(accountId, projectId);
  return {
    range,
    readable,
    environment,
    query: { projectId, from: range.since, to: range.until, environment, serviceName, release },
    echo: {
      project_id: projectId,
      since: iso(range.since),
      until: iso(range.until),
      service_name: serviceName,
      release,
      environment,
    },
  };
}

export type AnalyticsScope = Awaited<ReturnType<typeof resolveAnalyticsScope>>;

/**
 * Registers an analytics POST declared with `analyticsPostRoute`: the account's bearer, no
 * query keys, the JSON body, and its scope resolved; `answer` turns them into the 200 body.
 */
export function registerAnalyticsPost<Req extends z.ZodType, Res extends z.ZodType>(
  app: OpenAPIHono<AppEnv>,
  deps: Deps,
  route: ReturnType<typeof analyticsPostRoute<string, Req, Res>>,
  answer: (
    body: z.output<Req> & AnalyticsScopeInput,
    scope: AnalyticsScope,
  ) => Promise<z.input<Res>>,
): void {
  const auth = requireAccount(deps, { session: false });
  app.openapi(
    { ...route, middleware: [auth, strictQuery(route.request.query), jsonBody()] as const },
    async (c) => {
      // The route is generic here, so its validated body is read untyped and typed by `Req`.
      const request = c.req as unknown as {
        valid(target: 'json'): z.output<Req> & AnalyticsScopeInput;
      };
      const body = request.valid('json');
      const scope = await resolveAnalyticsScope(deps, c.get('principal').accountId, body);
      return c.json(await answer(body, scope), 200);
    },
  );
}
