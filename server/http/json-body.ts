import type { MiddlewareHandler } from 'hono';
import { fail } from './api-error';

const jsonType = /^application\/(?:[a-z0-9.+-]+\+)?json\s*(?:;.*)?$/i;

/**
 * Checks a JSON request body before the route's schema sees it: the content type (415),
 * the size (413) and that it parses (400). The schema then decides shape (422).
 */
export function jsonBody(maxBytes = 1024 * 1024): MiddlewareHandler {
  return async (c, next) => {
    const type = c.req.header('content-type') ?? '';
    if (!jsonType.test(type)) {
      throw fail.invalidJson(
        415,
        'request body must be JSON',
        'Send the body as JSON with the header Content-Type: application/json.',
      );
    }
    const declared = Number(c.req.header('content-length'));
    const tooLarge = () =>
      fail.invalidJson(413, `request body is larger than ${maxBytes} bytes`, `Send at most ${maxBytes} bytes.`);
    if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge();
    const text = await c.req.text();
    if (Buffer.byteLength(text) > maxBytes) throw tooLarge();
    try {
      JSON.parse(text);
    } catch {
      throw fail.invalidJson(400, 'request body is not valid JSON', 'Send a valid JSON document as the body.');
    }
    await next();
  };
}
