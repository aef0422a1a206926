import type { MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { AppEnv } from './app-env';
import type { Logger } from '../core/logger';

/**
 * Records method, path template, status and error code only. The template (not the URL)
 * keeps ids, query strings and feed tickets out of the log.
 */
export function accessLog(log: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    await next();
    // The innermost route that is not app-wide middleware: a route registered for every method
    // (the live feed answers all of them) has method ALL too, but a path of its own.
    const route = [...matchedRoutes(c)]
      .reverse()
      .find((r) => r.method !== 'ALL' || !r.path.includes('*'));
    const fields: Record<string, string | number> = {
      method: c.req.method,
      path: route?.path ?? (c.req.path.startsWith('/api/') ? 'unmatched' : 'static'),
      status: c.res.status,
      ms: Math.round(performance.now() - started),
    };
    const code = c.get('errorCode');
    if (code) fields.code = code;
    log.info('request', fields);
  };
}
