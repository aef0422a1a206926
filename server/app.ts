import { OpenAPIHono } from '@hono/zod-openapi';
import { ApiError, fail } from './http/api-error';
import type { AppEnv, Deps } from './http/app-env';
import { accessLog } from './http/access-log';
import { validationHook } from './http/validation-hook';
import { createMethodIndex } from './http/method-not-allowed';
import { securityHeaders } from './http/security-headers';
import { createConsoleServer } from './http/static-console';
import { registerAccountRoutes } from './routes/account';
import { registerAuthRoutes } from './routes/auth';
import { registerHealthRoutes } from './routes/health';
import { registerProjectRoutes } from './routes/projects';

const apiPrefixes = ['/api/', '/v1/', '/healthz'];
const isApiPath = (p: string) => apiPrefixes.some((x) => p === x.replace(/\/$/, '') || p.startsWith(x));

/** Builds the whole service without listening: main.ts serves it, tests call it directly. */
export function createApp(deps: Deps): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

  app.use('*', accessLog(deps.log));
  app.use('*', securityHeaders());

  registerHealthRoutes(app);
  registerAuthRoutes(app, deps);
  registerAccountRoutes(app, deps);
  registerProjectRoutes(app, deps);

  app.openAPIRegistry.registerComponent('securitySchemes', 'accountBearer', {
    type: 'http',
    scheme: 'bearer',
    description: 'Account access token (from sign-in) or personal account token.',
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

  app.notFound((c) => {
    const allowed = methods.allowedFor(c.req.path);
    if (allowed) throw fail.methodNotAllowed(c.req.method, allowed.methods, allowed.path);
    if (!isApiPath(c.req.path) && consoleFiles?.available() && (c.req.method === 'GET' || c.req.method === 'HEAD')) {
      return consoleFiles.serve(c);
    }
    throw fail.notFound('no such route');
  });

  app.onError((err, c) => {
    const apiError = err instanceof ApiError ? err : null;
    if (!apiError) deps.log.error('unhandled error', { name: err.name });
    const e = apiError ?? fail.internal();
    c.set('errorCode', e.code);
    for (const [k, v] of Object.entries(e.headers)) c.header(k, v);
    return c.json(e.toBody(), e.status);
  });

  return app;
}

export function openApiDocument(app: OpenAPIHono<AppEnv>) {
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
