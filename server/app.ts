import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { ApiError, fail } from './core/api-error';
import type { AppEnv } from './http/app-env';
import type { Deps } from './core/deps';
import { accessLog } from './http/access-log';
import { validationHook } from './http/validation-hook';
import { ReadRuleError } from './domain/read-rules/read-rule-error';
import { fromReadRule } from './http/strict-query';
import { createMethodIndex } from './http/method-not-allowed';
import { securityHeaders } from './http/security-headers';
import { compressResponses } from './http/compress-responses';
import { createConsoleServer } from './http/static-console';
import { registerAccountRoutes } from './routes/account/account';
import { registerAuthRoutes } from './routes/auth/auth';
import { registerHealthRoutes } from './routes/health/health';
import { registerFeedRoutes } from './routes/feed/feed';
import { registerIngestRoutes } from './routes/ingest/ingest';
import { registerOtlpRoutes } from './routes/ingest/otlp';
import { registerIssueRoutes } from './routes/issues/issues';
import { registerLogRoutes } from './routes/logs/logs';
import { registerTraceRoutes } from './routes/traces/traces';
import { registerActionRoutes } from './routes/actions/actions';
import { registerAnalyticsRoutes } from './routes/analytics/analytics';
import { registerDeploymentRoutes } from './routes/deployments/deployments';
import { registerMetricRoutes } from './routes/metrics/metrics';
import { registerReleaseRoutes } from './routes/releases/releases';
import { registerVolumeRoute } from './routes/volume/volume';
import { registerOrganizationRoutes } from './routes/account/organizations';
import { registerProjectRoutes } from './routes/projects/projects';
import { registerInvestigationRoutes } from './routes/investigations/investigations';
import { registerSupportTicketRoutes } from './routes/support/support-tickets';
import { registerAlertRoutes } from './routes/alerts/alerts';
import { scopeProjects } from './auth/delegated-scope';
import { registerMcpRoute } from './mcp/mcp-route';

const apiPrefixes = ['/api/', '/v1/', '/otlp/', '/healthz', '/mcp/'];
const isApiPath = (p: string) =>
  apiPrefixes.some((x) => p === x.replace(/\/$/, '') || p.startsWith(x));

/** Builds the whole service without listening: main.ts serves it, tests call it directly. */
export function createApp(deps: Deps): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  // Every route's project checks go through this port: under a tool connection it answers
  // only for the projects the connection covers (the spec's delegated credential).
  deps.store.projects = scopeProjects(deps.store.projects);

  app.use('*', accessLog(deps.log));
  app.use('*', securityHeaders());
  // JSON answers compressed where the client accepts it (a large trace is 60 MB of JSON).
  app.use('*', compressResponses());
  // Hono hands only Error instances to onError; anything else thrown would escape as a bare
  // 500 without the envelope. Registered last of the app-wide middleware so the error answer
  // still passes through the access log and the security headers above.
  app.use('*', async (_c, next) => {
    try {
      await next();
    } catch (err) {
      throw err instanceof Error ? err : new Error('non-Error value thrown');
    }
  });

  registerHealthRoutes(app);
  registerAuthRoutes(app, deps);
  registerAccountRoutes(app, deps);
  registerOrganizationRoutes(app, deps);
  registerProjectRoutes(app, deps);
  registerIngestRoutes(app, deps);
  registerOtlpRoutes(app, deps);
  registerLogRoutes(app, deps);
  registerIssueRoutes(app, deps);
  registerTraceRoutes(app, deps);
  registerReleaseRoutes(app, deps);
  registerActionRoutes(app, deps);
  registerAnalyticsRoutes(app, deps);
  registerMetricRoutes(app, deps);
  registerVolumeRoute(app, deps);
  registerDeploymentRoutes(app, deps);
  registerInvestigationRoutes(app, deps);
  registerSupportTicketRoutes(app, deps);
  registerAlertRoutes(app, deps);
  registerFeedRoutes(app, deps);
  registerMcpRoute(app, deps);

  app.openAPIRegistry.registerComponent('securitySchemes', 'accountBearer', {
    type: 'http',
    scheme: 'bearer',
    description:
      'Account access token (from sign-in) or personal account token. A tool connection token (the delegated credential, `/api/account/tool-connections`) is accepted by the read routes only, for the projects it covers: another project gives `403 forbidden`, a read with no project given covers only its projects, and writes and the account routes give `403 forbidden`.',
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'ingestBearer', {
    type: 'http',
    scheme: 'bearer',
    description: 'Project-scoped ingest key. Only for the ingest routes.',
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'browserSession', {
    type: 'apiKey',
    in: 'cookie',
    name: 'svc_session',
  });

  const methods = createMethodIndex(app.routes);
  const consoleFiles = deps.config.staticDir ? createConsoleServer(deps.config.staticDir) : null;

  const errorResponse = (c: Context<AppEnv>, e: ApiError) => {
    c.set('errorCode', e.code);
    for (const [k, v] of Object.entries(e.headers)) c.header(k, v);
    return c.json(e.toBody(), e.status);
  };

  // Returns (never throws) its answer: Hono calls the not-found handler outside the
  // middleware's error handling, so a throw here would skip the security headers.
  app.notFound((c) => {
    const allowed = methods.allowedFor(c.req.path);
    if (allowed)
      return errorResponse(c, fail.methodNotAllowed(c.req.method, allowed.methods, allowed.path));
    if (
      !isApiPath(c.req.path) &&
      consoleFiles?.available() &&
      (c.req.method === 'GET' || c.req.method === 'HEAD')
    ) {
      return consoleFiles.serve(c);
    }
    return errorResponse(c, fail.notFound('no such route'));
  });

  app.onError((err, c) => {
    if (err instanceof ApiError) return errorResponse(c, err);
    if (err instanceof ReadRuleError) return errorResponse(c, fromReadRule(err));
    // Client errors raised by the framework (e.g. the body media-type gate of @hono/zod-openapi)
    // are the caller's mistake, not a 500.
    const client = err instanceof HTTPException ? fromHttpException(err) : null;
    if (client) return errorResponse(c, client);
    deps.log.error('unhandled error', { name: err.name });
    return errorResponse(c, fail.internal());
  });

  return app;
}

function fromHttpException(err: HTTPException): ApiError | null {
  switch (err.status) {
    case 400:
      return fail.invalidJson(
        400,
        'request body cannot be read',
        'Send a valid JSON document as the body.',
      );
    case 413:
      return fail.invalidJson(413, 'request body is too large', 'Send a smaller body.');
    case 415:
      return fail.invalidJson(
        415,
        'request body must be JSON',
        'Send the body as JSON with the header Content-Type: application/json.',
      );
    default:
      return null;
  }
}

const DELEGATED_FORBIDDEN =
  'No access (`forbidden`), including a tool connection (the delegated credential) that names a project it does not cover, writes, or calls an account route.';

/**
 * Every route an account bearer may call can answer a tool connection `403 forbidden` (the
 * rule is applied centrally, in account-auth and the projects port, not per route), so the
 * document states it on each of them rather than on the few that list a 403 of their own.
 */
function withDelegatedForbidden<D extends { paths?: Record<string, unknown> }>(doc: D): D {
  for (const item of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(item as Record<string, unknown>)) {
      if (typeof op !== 'object' || op === null || !('responses' in op)) continue;
      const { security, responses } = op as {
        security?: Record<string, string[]>[];
        responses: Record<string, unknown>;
      };
      if (!security?.some((s) => 'accountBearer' in s)) continue;
      if (responses['403'] === undefined) {
        responses['403'] = {
          description: DELEGATED_FORBIDDEN,
          content: {
            'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } },
          },
        };
      }
    }
  }
  return doc;
}

export function openApiDocument(app: OpenAPIHono<AppEnv>) {
  return withDelegatedForbidden(openApiDocumentAsDeclared(app));
}

function openApiDocumentAsDeclared(app: OpenAPIHono<AppEnv>) {
  return app.getOpenAPI31Document({
    openapi: '3.1.0',
    info: {
      title: 'Lookout service',
      version: '0.1.0',
      description:
        'The telemetry and account service behind the Lookout console. Errors use the envelope `{error, code, next, next_action}`.',
    },
  });
}
