import type { MiddlewareHandler } from 'hono';

/**
 * The console's Content-Security-Policy: no inline script and no eval. Inline styles are
 * allowed because the accessible primitives (Radix) set positioning styles at run time.
 */
export const contentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export function securityHeaders(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Referrer-Policy', 'no-referrer');
    c.header('Content-Security-Policy', contentSecurityPolicy);
    c.header('X-Frame-Options', 'DENY');
  };
}
